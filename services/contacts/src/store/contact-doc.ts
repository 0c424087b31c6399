import type { OutboxEntry } from "@crafter/kit";
import type { ConsentStatus } from "../domain/fields";

/** A contact (customer profile). One per (user, project, email) behind a unique index. */
export interface ContactDoc {
  _id: string;
  userId: string;
  projectId: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string;
  company: string;
  customerKind: string;
  contactType: string;
  tags: string[];
  custom: Record<string, string | number | boolean | Date>;
  customerSince?: Date;
  /** An IANA zone, canonical; "" (or absent, on contacts made before) for none. */
  timeZone?: string;
  updatedOn: Date;
  /** Orders placed in the connected store (Shopify's numberOfOrders); absent when no store knows the contact. */
  orderCount?: number | null;
  /** Total spent in the connected store, in `spentCurrency` (Shopify's amountSpent). */
  totalSpent?: number | null;
  /** ISO 4217 code of `totalSpent`. */
  spentCurrency?: string | null;
  source: string;
  consent: ConsentStatus;
  consentAt?: Date;
  /** Interactions per type, recounted from the interactions collection after each append. */
  interactionCounts: Record<string, number>;
  interactionCount: number;
  /** Facets (domain/segment.ts), matched by indexed equality. Search reads the project's snapshot. */
  facets: string[];
  /**
   * The import row (`<importId>:<line>`) that last updated this contact, written in the same update:
   * a resumed import finds its row applied and does not apply it twice.
   */
  importRow?: string;
  outbox: OutboxEntry[];
  outboxMinute?: number;
  createdAt: Date;
}

/** A contact as read: everything but its outbox. */
export type StoredContact = Omit<ContactDoc, "outbox">;
