import type { ResultOf, Schema } from "../contract";

/**
 * Shapes of the "Contacts REST" section: what the gateway answers comes from its OpenAPI document
 * (@crafter/client's, `make openapi`); what the web builds itself (inputs, the query-builder tree, list
 * filters) and what the document states only loosely (a custom field's type) is declared here.
 */

export type Contact = Schema<"Contact">;
export type ContactDetail = ResultOf<"/api/contacts/{id}", "get">;
export type Interaction = ResultOf<"/api/contacts/{id}/interactions", "post">;
export type ConsentCounts = Schema<"ConsentCounts">;
export type ContactImport = Schema<"ContactImport">;
export type ImportCheck = Schema<"ContactImportCheck">;
export type ImportRowError = ContactImport["errors"][number];
export type ImportResult = NonNullable<ContactImport["result"]>;
export type ImportStatus = ContactImport["status"];
export type Segment = Schema<"Segment">;

/** A segment's condition tree: the document types it as an open object, the web as SegmentQuery. */
export function queryOf(segment: Segment): SegmentQuery {
  return segment.query as unknown as SegmentQuery;
}
export type SegmentPreview = ResultOf<"/api/segments/preview", "post">;
export type ConsentAskPreview = ResultOf<"/api/contacts/consent-requests/preview", "post">;
export type ConsentAsk = Schema<"ConsentRequest">;
export type { Page as Paged } from "../contract";

export const CONSENT_STATUSES = ["pending", "subscribed", "unsubscribed", "bounced", "complained"] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];

export const CUSTOMER_KINDS = [
  { value: "business", label: "Business customer" },
  { value: "personal", label: "Personal customer" },
] as const;
export type CustomerKind = (typeof CUSTOMER_KINDS)[number]["value"];

export const CONTACT_SOURCES = ["manual", "import", "lead form", "lead assistant", "API", "Shopify"] as const;

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

/** Whose pending contacts "Ask for permission" emails: a saved segment, a condition tree, or all. */
export interface ConsentAskTarget {
  segmentId?: string;
  query?: SegmentQuery;
}
