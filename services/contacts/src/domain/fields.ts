/**
 * The fields a contact (customer profile) has, as segments, the table, the form and the CSV import
 * see them: the built-in fields plus the user's custom fields (settings/custom-fields).
 */

/** Value kinds of a field; custom fields are text, number, date, select or boolean. */
export type FieldKind = "text" | "number" | "date" | "select" | "boolean" | "list";

/** How a contact's consent to email stands (spec: double opt-in). */
export const CONSENT_STATUSES = ["pending", "subscribed", "unsubscribed", "bounced", "complained"] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];

/** Where a contact came from. */
export const CONTACT_SOURCES = ["manual", "import", "lead form", "lead assistant", "API", "Shopify"] as const;
export type ContactSource = (typeof CONTACT_SOURCES)[number];

/** The spec's customer kinds (icon hints: business customer, personal customer). */
export const CUSTOMER_KINDS = ["business", "personal"] as const;
export type CustomerKind = (typeof CUSTOMER_KINDS)[number];

/** A custom field the user defined in settings/custom-fields. `key` is stable, `label` is shown. */
export interface CustomFieldDefinition {
  key: string;
  label: string;
  kind: Exclude<FieldKind, "list">;
  /** The allowed values of a select field. */
  options?: string[];
}

export interface FieldDefinition {
  /** `firstName`… for built-ins, `custom.<key>` for custom fields. */
  key: string;
  label: string;
  kind: FieldKind;
  options?: readonly string[];
  /** Longest accepted text, in characters. */
  maxLength?: number;
}

/** The built-in fields, in the order the form and the import mapping show them. */
export const BUILT_IN_FIELDS: readonly FieldDefinition[] = [
  { key: "firstName", label: "First name", kind: "text", maxLength: 100 },
  { key: "lastName", label: "Last name", kind: "text", maxLength: 100 },
  { key: "email", label: "Email", kind: "text", maxLength: 254 },
  { key: "phone", label: "Phone", kind: "text", maxLength: 40 },
  { key: "company", label: "Company", kind: "text", maxLength: 200 },
  { key: "customerKind", label: "Customer kind", kind: "select", options: CUSTOMER_KINDS },
  { key: "contactType", label: "Contact type", kind: "select" },
  { key: "tags", label: "Tags", kind: "list", maxLength: 50 },
  { key: "consent", label: "Consent", kind: "select", options: CONSENT_STATUSES },
  { key: "source", label: "Source", kind: "select", options: CONTACT_SOURCES },
  { key: "customerSince", label: "Customer since", kind: "date" },
  { key: "timeZone", label: "Time zone", kind: "text", maxLength: 64 },
  { key: "updated_on", label: "Updated on", kind: "date" },
  // Kept by a connected store (Shopify's numberOfOrders and amountSpent); absent otherwise.
  { key: "orderCount", label: "Orders", kind: "number" },
  { key: "totalSpent", label: "Total spent", kind: "number" },
  { key: "interactions", label: "Interactions", kind: "list" },
];

/** Every field of a project's contacts: the built-ins, then the custom fields under `custom.`. */
export function fieldCatalogue(custom: readonly CustomFieldDefinition[]): FieldDefinition[] {
  return [
    ...BUILT_IN_FIELDS,
    ...custom.map((field) => ({
      key: `custom.${field.key}`,
      label: field.label,
      kind: field.kind,
      options: field.options,
      maxLength: field.kind === "text" ? 1000 : undefined,
    })),
  ];
}
