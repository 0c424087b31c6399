import { emailError, normalizeEmail } from "@crafter/kit";
import { canonicalTimeZone } from "@crafter/time";
import {
  CONSENT_STATUSES,
  type ConsentStatus,
  CUSTOMER_KINDS,
  type CustomerKind,
  type CustomFieldDefinition,
  fieldCatalogue,
} from "./fields";
import { contactFacets, monthDayFacets, type SegmentContact } from "./segment";

/**
 * A contact's own fields as the form, the API and the import give them, checked and normalised. Pure:
 * the use cases store what this returns.
 */

/** The editable fields of a contact; every one optional on an update. */
export interface ContactFieldsInput {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  company?: string;
  customerKind?: string;
  contactType?: string;
  tags?: string[];
  custom?: Record<string, unknown>;
  customerSince?: Date;
  /** An IANA time zone ("Europe/London"); "" clears it. */
  timeZone?: string;
}

/** The fields after `checkContactFields`: trimmed, email normalised, custom values typed. */
export interface ContactFields {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  company: string;
  customerKind: CustomerKind | "";
  contactType: string;
  tags: string[];
  custom: Record<string, string | number | boolean | Date>;
  customerSince?: Date;
  /** The contact's own IANA zone, canonical; "" or absent when unknown (the business's zone applies). */
  timeZone?: string;
}

export const MAX_TAGS = 50;
export const MAX_TAG_LENGTH = 50;
const LIMITS = { firstName: 100, lastName: 100, phone: 40, company: 200 } as const;

export type Checked<T> = { ok: true; value: T } | { ok: false; fields: Record<string, string> };

/** Tags trimmed, deduplicated case-insensitively (the first spelling wins), empty ones dropped. */
export function cleanTags(tags: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const raw of tags) {
    const tag = raw.trim();
    if (tag !== "" && !seen.has(tag.toLowerCase())) seen.set(tag.toLowerCase(), tag);
  }
  return [...seen.values()];
}

function customValue(
  field: CustomFieldDefinition,
  value: unknown,
): { value?: string | number | boolean | Date; error?: string } {
  if (value === null || value === undefined || value === "") return {};
  switch (field.kind) {
    case "number": {
      const n = typeof value === "number" ? value : Number(String(value).replace(/,/g, ""));
      return Number.isFinite(n) ? { value: n } : { error: `${field.label} must be a number` };
    }
    case "boolean":
      if (typeof value === "boolean") return { value };
      if (value === "true" || value === "false") return { value: value === "true" };
      return { error: `${field.label} must be true or false` };
    case "date": {
      const t = value instanceof Date ? value.getTime() : typeof value === "string" ? Date.parse(value) : Number.NaN;
      return Number.isNaN(t) ? { error: `${field.label} must be a date` } : { value: new Date(t) };
    }
    case "select": {
      const option = field.options?.find((o) => o.toLowerCase() === String(value).trim().toLowerCase());
      return option ? { value: option } : { error: `${field.label} must be one of its options` };
    }
    default: {
      if (typeof value !== "string" && typeof value !== "number") return { error: `${field.label} must be text` };
      const text = String(value).trim();
      return text.length > 1000 ? { error: `${field.label} is longer than 1000 characters` } : { value: text };
    }
  }
}

/** A contact with every field empty (no email yet), fresh each call. */
export function emptyContactFields(): ContactFields {
  return {
    firstName: "",
    lastName: "",
    email: "",
    phone: "",
    company: "",
    customerKind: "",
    contactType: "",
    tags: [],
    custom: {},
    timeZone: "",
  };
}

/**
 * Checks a contact's fields against the project's settings lists.
 * @param base the stored fields an update starts from (undefined on create: email is then required).
 * @returns the normalised fields, or one message per bad field ('Email is required', 'Invalid email', …).
 */
export function checkContactFields(
  input: ContactFieldsInput,
  settings: { customFields: readonly CustomFieldDefinition[]; contactTypes: readonly string[] },
  base?: ContactFields,
): Checked<ContactFields> {
  const fields: Record<string, string> = {};
  const out: ContactFields = base
    ? { ...base, tags: [...base.tags], custom: { ...base.custom } }
    : emptyContactFields();
  if (input.email !== undefined || !base) {
    const problem = emailError(input.email);
    if (problem) fields.email = problem;
    else out.email = normalizeEmail(input.email ?? "");
  }
  for (const name of ["firstName", "lastName", "phone", "company"] as const) {
    const value = input[name];
    if (value === undefined) continue;
    const text = value.trim();
    if (text.length > LIMITS[name]) fields[name] = `At most ${LIMITS[name]} characters`;
    else out[name] = text;
  }
  if (input.customerKind !== undefined) {
    const kind = input.customerKind.trim().toLowerCase();
    if (kind !== "" && !(CUSTOMER_KINDS as readonly string[]).includes(kind)) {
      fields.customerKind = "Customer kind is business or personal";
    } else out.customerKind = kind as CustomerKind | "";
  }
  if (input.contactType !== undefined) {
    const type = input.contactType.trim();
    const known = settings.contactTypes.find((t) => t.toLowerCase() === type.toLowerCase());
    if (type !== "" && !known) fields.contactType = "Unknown contact type";
    else out.contactType = known ?? "";
  }
  if (input.tags !== undefined) {
    const tags = cleanTags(input.tags);
    if (tags.length > MAX_TAGS) fields.tags = `At most ${MAX_TAGS} tags`;
    else if (tags.some((tag) => tag.length > MAX_TAG_LENGTH))
      fields.tags = `A tag has at most ${MAX_TAG_LENGTH} characters`;
    else out.tags = tags;
  }
  if (input.custom !== undefined) {
    for (const [key, value] of Object.entries(input.custom)) {
      const field = settings.customFields.find((f) => f.key === key);
      if (!field) {
        fields[`custom.${key}`] = "Unknown custom field";
        continue;
      }
      const checked = customValue(field, value);
      if (checked.error) fields[`custom.${key}`] = checked.error;
      else if (checked.value === undefined) delete out.custom[key];
      else out.custom[key] = checked.value;
    }
  }
  if (input.customerSince !== undefined) {
    if (Number.isNaN(input.customerSince.getTime())) fields.customerSince = "Customer since must be a date";
    else out.customerSince = input.customerSince;
  }
  if (input.timeZone !== undefined) {
    const zone = input.timeZone.trim();
    const known = zone === "" ? "" : canonicalTimeZone(zone);
    if (known === null) fields.timeZone = "Time zone must be an IANA name such as Europe/London";
    else out.timeZone = known;
  }
  return Object.keys(fields).length > 0 ? { ok: false, fields } : { ok: true, value: out };
}

export function isConsentStatus(value: string): value is ConsentStatus {
  return (CONSENT_STATUSES as readonly string[]).includes(value);
}

/** What a stored contact holds besides its fields, as segments and the table read it. */
export interface ContactState extends ContactFields {
  source: string;
  consent: ConsentStatus;
  updatedOn: Date;
  interactionCounts: Record<string, number>;
  /** From a connected store (Shopify); undefined when none knows the contact. */
  orderCount?: number | null;
  totalSpent?: number | null;
}

/** The contact as segments evaluate it (segment.ts): `updated_on`, and `interactions.<type>` counts. */
export function segmentView(contact: ContactState, interactionTypes: readonly string[]): SegmentContact {
  const view: SegmentContact = {
    firstName: contact.firstName,
    lastName: contact.lastName,
    email: contact.email,
    phone: contact.phone,
    company: contact.company,
    customerKind: contact.customerKind,
    contactType: contact.contactType,
    tags: contact.tags,
    consent: contact.consent,
    source: contact.source,
    customerSince: contact.customerSince,
    updated_on: contact.updatedOn,
    orderCount: contact.orderCount,
    totalSpent: contact.totalSpent,
    interactions: Object.entries(contact.interactionCounts).flatMap(([type, n]) => Array<string>(n).fill(type)),
    custom: contact.custom,
  };
  for (const type of interactionTypes) view[`interactions.${type}`] = contact.interactionCounts[type] ?? 0;
  return view;
}

/** The indexed arrays of a contact: its facets (segment.ts). */
export function indexedArrays(
  contact: ContactState,
  customFields: readonly CustomFieldDefinition[],
): { facets: string[] } {
  return {
    facets: contactFacets(segmentView(contact, []), fieldCatalogue(customFields)),
  };
}

/**
 * The month-day facets a stored contact should carry but does not (`customerSince@md:05-01`…): a
 * contact saved before they existed has none until its next save (the date-token backfill adds them).
 */
export function missingMonthDayFacets(
  contact: ContactState & { facets?: readonly string[] },
  customFields: readonly CustomFieldDefinition[],
): string[] {
  const has = new Set(contact.facets ?? []);
  return monthDayFacets(segmentView(contact, []), fieldCatalogue(customFields)).filter((f) => !has.has(f));
}
