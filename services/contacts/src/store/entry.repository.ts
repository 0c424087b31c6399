import { idField, modelOn, type OutboxEntry, outboxField, TenantRepository } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/** An entry of one user. */
export interface EntryDoc {
  _id: string;
  userId: string;
  outbox: OutboxEntry[];
  createdAt: Date;
  updatedAt: Date;
}

const entrySchema = new Schema<EntryDoc>(
  { _id: idField, userId: { type: String, required: true }, outbox: outboxField },
  { collection: "entries", timestamps: true, versionKey: false },
);
entrySchema.index({ userId: 1, createdAt: 1 });

export function entryModel(connection: Connection): Model<EntryDoc> {
  return modelOn<EntryDoc>(connection, "Entry", entrySchema);
}

/** Entries, always within their owner. */
export class EntryRepository extends TenantRepository<EntryDoc> {
  constructor(model: Model<EntryDoc>) {
    super(model, "userId");
  }

  /** How many entries the user has (an equality filter on an indexed field). */
  countFor(userId: string): Promise<number> {
    return this.count(userId);
  }
}
