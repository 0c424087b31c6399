/**
 * Shapes of the "Contacts REST" section of docs/second-half-contract.md, as the web reads them.
 * Optional fields are those the contract does not spell out; pages tolerate their absence.
 */

export const CONSENT_STATUSES = ["pending", "subscribed", "unsubscribed", "bounced", "complained"] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];

export const CUSTOMER_KINDS = [
  { value: "business", label: "Business customer" },
  { value: "personal", label: "Personal customer" },
] as const;
export type CustomerKind = (typeof CUSTOMER_KINDS)[number]["value"];

export const CONTACT_SOURCES = ["manual", "import", "lead form", "lead assistant", "API"] as const;

export type CustomFieldType = "text" | "number" | "date" | "select" | "boolean";
export const CUSTOM_FIELD_TYPES: readonly CustomFieldType[] = ["text", "number", "date", "select", "boolean"];

export interface CustomField {
  key: string;
  label: string;
  type: CustomFieldType;
  options?: string[];
}

/** An entry of the interaction-types or contact-types settings lists. */
export interface KeyLabel {
  key: string;
  label: string;
}

export interface Contact {
  id: string;
  firstName?: string;
  lastName?: string;
  email: string;
  phone?: string;
  company?: string;
  /** The contact's own IANA time zone; "" or absent: the business's. */
  timeZone?: string;
  customerKind?: CustomerKind | string;
  contactType?: string;
  tags?: string[];
  custom?: Record<string, unknown>;
  consent?: ConsentStatus | string;
  source?: string;
  customerSince?: string;
  updatedOn?: string;
  updated_on?: string;
}

export interface ConsentChange {
  status: string;
  at: string;
  source?: string;
}

export type ContactDetail = Contact & { consentHistory?: ConsentChange[] };

export interface Interaction {
  id?: string;
  type: string;
  note?: string;
  occurredAt: string;
}

export interface PageMeta {
  count: number;
  currentPage: number;
  totalPages: number;
}

export interface Paged<T> {
  result: T[];
  meta: PageMeta;
}

/** The editable fields of a contact (`POST /api/contacts`, `PATCH /api/contacts/:id`). */
export interface ContactInput {
  firstName?: string;
  lastName?: string;
  email: string;
  phone?: string;
  company?: string;
  customerKind?: string;
  contactType?: string;
  tags?: string[];
  custom?: Record<string, unknown>;
  consent?: string;
  timeZone?: string;
}

/** Filters of `GET /api/contacts` (also the `filter` of a bulk action and the CSV export). */
export interface ContactListQuery {
  page?: number;
  pageSize?: number;
  sort?: string;
  order?: "asc" | "desc";
  q?: string;
  tags?: string[];
  consent?: string;
  contactType?: string;
  customerKind?: string;
  segmentId?: string;
}

export type BulkAction = "tag" | "untag" | "delete" | "addToSegment";

export type ImportStatus = "fields" | "processing" | "result" | "error";

export interface ImportResult {
  processed: number;
  total: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  overLimit: number;
  /** Rows whose email appeared earlier in the file (neither created nor updated). */
  duplicatesInFile?: number;
}

/** A row an import did not take (or would not). */
export interface ImportRowError {
  line: number;
  email: string;
  value: string;
  reason: string;
}

/** What an uploaded import would do with a mapping (`POST /api/contacts/imports/{id}/check`). */
export interface ImportCheck {
  rows: number;
  consent: { subscribed: number; pending: number; unsubscribed: number; bounced: number; complained: number };
  failing: number;
  duplicatesInFile: number;
  /** Columns mapped to a select field holding values outside its list. */
  unknown: Array<{
    header: string;
    target: string;
    values: Array<{ value: string; count: number }>;
    more: boolean;
    rows: number;
    guessed: boolean;
  }>;
  errors: ImportRowError[];
}

/** The spec's contact import state: fields, file, result, error, processing. */
export interface ContactImport {
  id: string;
  status: ImportStatus;
  file: { name?: string; size: number; rows: number };
  /** CSV header → field key ("" or absent: not imported). */
  fields?: Record<string, string | null>;
  mapping?: Array<{ header: string; target: string | null } | string | null> | Record<string, string | null>;
  headers?: string[];
  preview?: string[][] | Record<string, string>[];
  result?: ImportResult | null;
  error?: { code?: string; message?: string } | string | null;
  processing: boolean;
  duplicates?: "update" | "skip";
  inFile?: "first" | "last" | null;
  /** The first 100 rows not imported, once the import ended. */
  errors?: ImportRowError[];
  createdAt?: string;
}

export interface SegmentRule {
  id?: string;
  field: string;
  operator: string;
  value?: unknown;
}

export interface SegmentQuery {
  id?: string;
  combinator: "and" | "or";
  not?: boolean;
  rules: Array<SegmentRule | SegmentQuery>;
}

/** Contacts by consent; `subscribed` is who a campaign reaches. */
export interface ConsentCounts {
  total: number;
  subscribed: number;
  pending: number;
  unsubscribed: number;
  bounced: number;
  complained: number;
}

export interface Segment {
  id: string;
  name: string;
  query: SegmentQuery;
  /** With `GET /api/segments?counts=true`. */
  counts?: ConsentCounts;
  updatedAt?: string;
}

export interface SegmentPreview {
  count: number;
  preview: Contact[];
  consent?: ConsentCounts;
}

/** Whose pending contacts "Ask for permission" emails: a saved segment, a condition tree, or all. */
export interface ConsentAskTarget {
  segmentId?: string;
  query?: SegmentQuery;
}

export interface ConsentAskPreview {
  pending: number;
  eligible: number;
  recentlyAsked: number;
}

/** One "Ask for permission" request and how far it has got. */
export interface ConsentAsk {
  id: string;
  segmentId: string;
  total: number;
  sent: number;
  skipped: number;
  done: boolean;
  startedAt: string | null;
  finishedAt: string | null;
}
