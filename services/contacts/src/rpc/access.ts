import { rpcAccess } from "@crafter/kit";
import { ContactsService } from "@crafter/proto/crafter/contacts/v1/contacts_pb";
import { LeadsService } from "@crafter/proto/crafter/contacts/v1/leads_pb";

/** Who may call each ContactsService RPC: a method without an entry is refused. Every RPC acts on
 * the caller's own contacts; StreamSegmentMembers, GetContact and SetConsent also serve the email issue's
 * services, naming the user (notifications: consent before a send, bounces and complaints), and GetContact,
 * UpdateContact, TagContacts and MatchContact the automations. */
export const access = rpcAccess(ContactsService, {
  getContactsStatus: ["user"],
  createContact: ["user"],
  getContact: ["user", "service:notifications"],
  updateContact: ["user", "service:notifications"],
  deleteContacts: ["user"],
  listContacts: ["user"],
  tagContacts: ["user", "service:notifications"],
  // Notifications records bounces and complaints, naming the user.
  setConsent: ["user", "service:notifications"],
  addInteraction: ["user"],
  exportContactData: ["user"],
  exportContacts: ["user"],
  uploadImportFile: ["user"],
  startImport: ["user"],
  checkImport: ["user"],
  getImport: ["user"],
  exportImportErrors: ["user"],
  saveSegment: ["user"],
  listSegments: ["user"],
  deleteSegment: ["user"],
  countSegment: ["user"],
  streamSegmentMembers: ["user", "service:notifications", "service:workflows"],
  listInteractions: ["user"],
  countInteractions: ["user"],
  getContactSettings: ["user"],
  saveContactSettings: ["user"],
  listImports: ["user"],
  getSegment: ["user"],
  addToSegment: ["user"],
  listContactIds: ["user"],
  previewConsentAsk: ["user"],
  startConsentAsk: ["user"],
  getConsentAsk: ["user"],
  // Automations' condition steps (notifications names the user).
  matchContact: ["service:notifications"],
  // The email area's signed links and segment triggers (docs/email-contract.md).
  getContactLinks: ["service:notifications"],
  matchSegments: ["service:notifications"],
  listContactsByDate: ["service:notifications"],
});

/**
 * LeadsService: the owner's builder RPCs are the user's; the visitor's side is public (the gateway
 * calls it without a token, rate-limited per IP and per form): a form or assistant is named by its
 * public id, a contact only by a signed link token.
 */
export const leadsAccess = rpcAccess(LeadsService, {
  getLeadForm: ["user"],
  saveLeadForm: ["user"],
  listSubmissions: ["user"],
  getPublicForm: ["public"],
  submitLeadForm: ["public"],
  confirmConsent: ["public"],
  getPreferences: ["public"],
  setPreferences: ["public"],
  unsubscribe: ["public"],
  getLeadAssistant: ["user"],
  saveLeadAssistant: ["user"],
  listAssistantSessions: ["user"],
  getAssistantSession: ["user"],
  getPublicAssistant: ["public"],
  sendAssistantMessage: ["public"],
});
