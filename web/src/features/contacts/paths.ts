// The area's page paths, apart from routes.tsx (which lazy-loads the pages that use them).
export const CONTACT_PAGES = {
  contacts: "/app/contacts",
  add: "/app/contacts/add",
  import: "/app/contacts/import",
  contact: (id: string) => `/app/contacts/${encodeURIComponent(id)}`,
  segments: "/app/segments",
  segment: (id: string) => `/app/segments/${encodeURIComponent(id)}`,
  customFields: "/app/settings/custom-fields",
  interactionTypes: "/app/settings/interaction-types",
  contactTypes: "/app/settings/contact-type",
  leadForm: "/app/leads-form",
  leadAssistant: "/app/leads-assistant",
} as const;
