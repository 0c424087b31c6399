import { idField, isDuplicateKey, modelOn, type OutboxEntry, outboxField, type Plain, toPlain } from "@crafter/kit";
import { type Connection, type Model, type QueryFilter, Schema } from "mongoose";
import type { ConsentStatus, ContactSource, CustomerKind } from "../domain/fields";

/**
 * A contact (customer profile) of one project of one user. `facets` and `searchTokens` are derived
 * on every write (domain/segment.ts, domain/search.ts) so segments and search narrow by equality,
 * which FerretDB runs inside PostgreSQL (docs/adr). Consent changes and interactions are appended
 * to their own collections; the contact keeps the current status and counts as a snapshot.
 */
export interface ContactDoc {
  _id: string;
  userId: string;
  projectId: string;
  /** Normalised: trimmed, lower case. Unique per project. */
  email: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  company?: string;
  customerKind?: CustomerKind;
  contactType?: string;
  tags: string[];
  custom: Record<string, unknown>;
  customerSince: Date;
  updated_on: Date;
  source: ContactSource;
  consent: ConsentStatus;
  consentAt: Date;
  interactions: string[];
  /** "first last" in lower case, for sorting by name. */
  sortName: string;
  facets: string[];
  searchTokens: string[];
  outbox: OutboxEntry[];
}

export type Contact = Plain<ContactDoc>;

const contactSchema = new Schema<ContactDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, required: true },
    email: { type: String, required: true },
    firstName: String,
    lastName: String,
    phone: String,
    company: String,
    customerKind: String,
    contactType: String,
    tags: { type: [String], default: () => [] },
    custom: { type: Schema.Types.Mixed, default: () => ({}) },
    customerSince: { type: Date, required: true },
    updated_on: { type: Date, required: true },
    source: { type: String, required: true },
    consent: { type: String, required: true },
    consentAt: { type: Date, required: true },
    interactions: { type: [String], default: () => [] },
    sortName: { type: String, default: "" },
    facets: { type: [String], default: () => [] },
    searchTokens: { type: [String], default: () => [] },
    outbox: outboxField,
  },
  { collection: "contacts", versionKey: false, minimize: false },
);
// The concurrency guard of create and import: one contact per email per project.
contactSchema.index({ projectId: 1, email: 1 }, { unique: true });
contactSchema.index({ projectId: 1, userId: 1 });
contactSchema.index({ projectId: 1, facets: 1 });
contactSchema.index({ projectId: 1, searchTokens: 1 });

export function contactModel(connection: Connection): Model<ContactDoc> {
  return modelOn<ContactDoc>(connection, "Contact", contactSchema);
}

/** The fields the table may sort by, and the stored field each sorts on. */
export const SORT_FIELDS = {
  name: "sortName",
  email: "email",
  customerSince: "customerSince",
  updated_on: "updated_on",
} as const;
export type SortField = keyof typeof SORT_FIELDS;

/** What narrows a read in the database: equality on one facet and/or one search token. */
export interface Narrowing {
  facet?: string;
  token?: string;
}

/** Contacts, always within their user and project. */
export class ContactRepository {
  constructor(readonly model: Model<ContactDoc>) {}

  private scope(userId: string, projectId: string, narrowing: Narrowing = {}): QueryFilter<ContactDoc> {
    const filter: QueryFilter<ContactDoc> = { projectId, userId };
    if (narrowing.facet) filter.facets = narrowing.facet;
    if (narrowing.token) filter.searchTokens = narrowing.token;
    return filter;
  }

  /**
   * Inserts a contact with the event that announces it. @returns null when the project already has a
   * contact with that email (the unique index decides, so concurrent creates make one).
   */
  async insert(doc: Omit<ContactDoc, "outbox">, event: OutboxEntry): Promise<Contact | null> {
    try {
      const created = await this.model.create({ ...doc, outbox: [event] });
      return toPlain(created.toObject() as ContactDoc);
    } catch (error) {
      if (isDuplicateKey(error)) return null;
      throw error;
    }
  }

  async get(userId: string, projectId: string, contactId: string): Promise<Contact | null> {
    const doc = await this.model.findOne({ _id: contactId, projectId, userId }).lean<ContactDoc>();
    return doc ? toPlain(doc) : null;
  }

  async getMany(userId: string, projectId: string, contactIds: readonly string[]): Promise<Contact[]> {
    const docs = await Promise.all(contactIds.map((id) => this.get(userId, projectId, id)));
    return docs.filter((doc): doc is Contact => doc !== null);
  }

  async findByEmail(userId: string, projectId: string, email: string): Promise<Contact | null> {
    const doc = await this.model.findOne({ projectId, email, userId }).lean<ContactDoc>();
    return doc ? toPlain(doc) : null;
  }

  /** How many contacts a user has in all their projects (the plan's profile limit counts these). */
  async countForUser(userId: string): Promise<number> {
    return this.model.countDocuments({ userId });
  }

  async count(userId: string, projectId: string, narrowing: Narrowing = {}): Promise<number> {
    return this.model.countDocuments(this.scope(userId, projectId, narrowing));
  }

  /** One page, sorted in the database (ties broken by id so pages never overlap). */
  async page(
    userId: string,
    projectId: string,
    narrowing: Narrowing,
    sort: { field: SortField; descending: boolean },
    page: number,
    pageSize: number,
  ): Promise<Contact[]> {
    const direction = sort.descending ? -1 : 1;
    const docs = await this.model
      .find(this.scope(userId, projectId, narrowing), { outbox: 0, searchTokens: 0, facets: 0 })
      .sort({ [SORT_FIELDS[sort.field]]: direction, _id: direction })
      .skip((page - 1) * pageSize)
      .limit(pageSize)
      .lean<ContactDoc[]>();
    return docs.map((doc) => toPlain(doc));
  }

  /** Every contact the narrowing lets through, in batches, for segments, exports and filters. */
  async *scan(userId: string, projectId: string, narrowing: Narrowing = {}, batchSize = 1000): AsyncGenerator<Contact> {
    const cursor = this.model
      .find(this.scope(userId, projectId, narrowing), { outbox: 0, searchTokens: 0 })
      .sort({ _id: 1 })
      .batchSize(batchSize)
      .lean<ContactDoc[]>()
      .cursor();
    for await (const doc of cursor) yield toPlain(doc as ContactDoc);
  }

  /**
   * Replaces a contact's fields and appends an event. Concurrent edits of one contact are last-writer
   * wins (FerretDB does not isolate updates), which is what a form save means.
   */
  async replace(userId: string, projectId: string, contactId: string, fields: Partial<ContactDoc>, event: OutboxEntry): Promise<Contact | null> {
    const doc = await this.model
      .findOneAndUpdate({ _id: contactId, projectId, userId }, { $set: fields, $push: { outbox: event } }, { returnDocument: "after" })
      .lean<ContactDoc>();
    return doc ? toPlain(doc) : null;
  }

  /** Deletes one contact. The event goes out through the tombstones collection's outbox. */
  async delete(userId: string, projectId: string, contactId: string): Promise<boolean> {
    const result = await this.model.deleteOne({ _id: contactId, projectId, userId });
    return result.deletedCount === 1;
  }
}
