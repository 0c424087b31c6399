import {
  idField,
  isDuplicateKey,
  modelOn,
  type OutboxEntry,
  outboxField,
  outboxMinuteField,
  outboxMinuteOf,
} from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { ConsentStatus } from "../domain/fields";
import type { Scope } from "./contact.repository";

/** One change of a contact's consent, appended (never updated). */
export interface ConsentChangeDoc {
  _id: string;
  userId: string;
  projectId: string;
  contactId: string;
  status: ConsentStatus;
  source: string;
  at: Date;
}

/** One interaction of a contact's timeline, appended. */
export interface InteractionDoc {
  _id: string;
  userId: string;
  projectId: string;
  contactId: string;
  type: string;
  note: string;
  at: Date;
  createdAt: Date;
}

/** A deleted contact's tombstone: carries ContactDeleted, written before the data goes. */
export interface DeletionDoc {
  _id: string;
  userId: string;
  projectId: string;
  contactId: string;
  at: Date;
  outbox: OutboxEntry[];
  outboxMinute: number;
}

const consentSchema = new Schema<ConsentChangeDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    contactId: { type: String, required: true },
    status: { type: String, required: true },
    source: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { collection: "consent_changes", versionKey: false },
);
consentSchema.index({ contactId: 1 });

const interactionSchema = new Schema<InteractionDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    contactId: { type: String, required: true },
    type: { type: String, required: true },
    note: { type: String, default: "" },
    at: { type: Date, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: "interactions", versionKey: false },
);
interactionSchema.index({ contactId: 1 });

const deletionSchema = new Schema<DeletionDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    contactId: { type: String, required: true },
    at: { type: Date, required: true },
    outbox: outboxField,
    outboxMinute: outboxMinuteField,
  },
  { collection: "contact_deletions", versionKey: false },
);

export function consentChangeModel(connection: Connection): Model<ConsentChangeDoc> {
  return modelOn<ConsentChangeDoc>(connection, "ConsentChange", consentSchema);
}
export function interactionModel(connection: Connection): Model<InteractionDoc> {
  return modelOn<InteractionDoc>(connection, "Interaction", interactionSchema);
}
export function deletionModel(connection: Connection): Model<DeletionDoc> {
  return modelOn<DeletionDoc>(connection, "ContactDeletion", deletionSchema);
}

const owned = (scope: Scope, contactId: string) => ({ contactId, userId: scope.userId, projectId: scope.projectId });

/** A contact's consent history and interaction timeline: append-only collections keyed by contact. */
export class TimelineRepository {
  constructor(
    readonly consent: Model<ConsentChangeDoc>,
    readonly interactions: Model<InteractionDoc>,
    readonly deletions: Model<DeletionDoc>,
  ) {}

  async appendConsent(scope: Scope, contactId: string, status: ConsentStatus, source: string, at: Date): Promise<void> {
    await this.consent.create({ ...owned(scope, contactId), status, source, at });
  }

  /**
   * Appends consent changes, unordered. One given an `_id` (an import's `<importId>:<line>`) that is
   * already there is left as it is: appending it again (a resumed batch) adds nothing.
   */
  async appendConsents(docs: Array<Omit<ConsentChangeDoc, "_id"> & { _id?: string }>): Promise<void> {
    if (docs.length === 0) return;
    try {
      await this.consent.insertMany(docs, { ordered: false });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
  }

  /** Oldest first. */
  async consentHistory(scope: Scope, contactId: string): Promise<ConsentChangeDoc[]> {
    const docs = await this.consent.find(owned(scope, contactId)).lean<ConsentChangeDoc[]>();
    return docs.sort((a, b) => a.at.getTime() - b.at.getTime());
  }

  /**
   * Appends an interaction. One given an `_id` (a lead-form submission's) that is already there is
   * left as it is: appending it again (a retried or recovered submission) adds nothing.
   */
  async appendInteraction(doc: Omit<InteractionDoc, "_id"> & { _id?: string }): Promise<InteractionDoc> {
    try {
      return (await this.interactions.create(doc)).toObject() as InteractionDoc;
    } catch (error) {
      if (!doc._id || !isDuplicateKey(error)) throw error;
      return { ...doc, _id: doc._id };
    }
  }

  /** Newest first (sorted here: the set is one contact's, narrowed by indexed equality). */
  async interactionsOf(scope: Scope, contactId: string): Promise<InteractionDoc[]> {
    const docs = await this.interactions.find(owned(scope, contactId)).lean<InteractionDoc[]>();
    return docs.sort((a, b) => b.at.getTime() - a.at.getTime() || b.createdAt.getTime() - a.createdAt.getTime());
  }

  /** Writes the tombstone that carries ContactDeleted (before the contact's data is removed). */
  async tombstone(scope: Scope, contactId: string, at: Date, event: OutboxEntry): Promise<void> {
    await this.deletions.create({
      ...owned(scope, contactId),
      at,
      outbox: [event],
      outboxMinute: outboxMinuteOf(event.time),
    });
  }

  /** Removes a contact's consent history and interactions. */
  async removeContact(scope: Scope, contactId: string): Promise<void> {
    await Promise.all([
      this.consent.deleteMany(owned(scope, contactId)),
      this.interactions.deleteMany(owned(scope, contactId)),
    ]);
  }
}
