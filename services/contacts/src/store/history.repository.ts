import { idField, modelOn, type OutboxEntry, outboxField } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { ConsentStatus } from "../domain/fields";

/** One change of a contact's consent: appended, never updated (the contact holds the current one). */
export interface ConsentChangeDoc {
  _id: string;
  contactId: string;
  projectId: string;
  status: ConsentStatus;
  /** manual, import, lead form, lead assistant, API, unsubscribe link, bounce, complaint. */
  source: string;
  at: Date;
}

/** One interaction on a contact's timeline, typed by the interaction-types settings list. */
export interface InteractionDoc {
  _id: string;
  contactId: string;
  projectId: string;
  type: string;
  note: string;
  at: Date;
}

/** What is left of a deleted contact: its id and the ContactDeleted event, until relayed. */
export interface TombstoneDoc {
  _id: string;
  userId: string;
  projectId: string;
  deletedAt: Date;
  outbox: OutboxEntry[];
}

const consentSchema = new Schema<ConsentChangeDoc>(
  {
    _id: idField,
    contactId: { type: String, required: true },
    projectId: { type: String, required: true },
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
    contactId: { type: String, required: true },
    projectId: { type: String, required: true },
    type: { type: String, required: true },
    note: { type: String, default: "" },
    at: { type: Date, required: true },
  },
  { collection: "interactions", versionKey: false },
);
interactionSchema.index({ contactId: 1 });

const tombstoneSchema = new Schema<TombstoneDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    projectId: { type: String, required: true },
    deletedAt: { type: Date, required: true },
    outbox: outboxField,
  },
  { collection: "contact_tombstones", versionKey: false },
);

export function historyModels(connection: Connection) {
  return {
    consent: modelOn<ConsentChangeDoc>(connection, "ConsentChange", consentSchema),
    interactions: modelOn<InteractionDoc>(connection, "Interaction", interactionSchema),
    tombstones: modelOn<TombstoneDoc>(connection, "ContactTombstone", tombstoneSchema),
  };
}

/** The append-only history of contacts: consent changes, interactions and deletions. */
export class HistoryRepository {
  constructor(
    readonly consent: Model<ConsentChangeDoc>,
    readonly interactions: Model<InteractionDoc>,
    readonly tombstones: Model<TombstoneDoc>,
  ) {}

  async appendConsent(change: Omit<ConsentChangeDoc, "_id">): Promise<void> {
    await this.consent.create(change);
  }

  /** A contact's consent changes, oldest first (filtered by the contact id, an indexed equality). */
  async consentHistory(contactId: string): Promise<ConsentChangeDoc[]> {
    const docs = await this.consent.find({ contactId }).lean<ConsentChangeDoc[]>();
    return docs.sort((a, b) => a.at.getTime() - b.at.getTime());
  }

  async appendInteraction(interaction: Omit<InteractionDoc, "_id">): Promise<InteractionDoc> {
    const created = await this.interactions.create(interaction);
    return created.toObject() as InteractionDoc;
  }

  /** A contact's interactions, newest first. */
  async timeline(contactId: string): Promise<InteractionDoc[]> {
    const docs = await this.interactions.find({ contactId }).lean<InteractionDoc[]>();
    return docs.sort((a, b) => b.at.getTime() - a.at.getTime());
  }

  /** Records a deletion with its event; repeated deletes of one id keep the first tombstone. */
  async bury(tombstone: Omit<TombstoneDoc, "outbox">, event: OutboxEntry): Promise<void> {
    await this.tombstones.updateOne({ _id: tombstone._id }, { $setOnInsert: { ...tombstone, outbox: [event] } }, { upsert: true });
  }

  /** Removes a deleted contact's history (privacy: deleted everywhere). */
  async forget(contactId: string): Promise<void> {
    await Promise.all([this.consent.deleteMany({ contactId }), this.interactions.deleteMany({ contactId })]);
  }
}
