import { randomUUID } from "node:crypto";
import { insertOnce, modelOn } from "@crafter/kit";
import type { Connection, Model } from "mongoose";
import { Schema } from "mongoose";

/**
 * One admin action: who did what, to whom, and when. The log is append-only: this
 * repository only inserts and reads (no update or delete exists in the code, and the schema is
 * strict), and an entry's `_id` may be derived from the action's idempotency key so a retried
 * action is logged once.
 */
export interface AuditDoc {
  _id: string;
  actorId: string;
  actorEmail: string;
  /** "credits.grant", "flag.set", "flag.set_global". */
  action: string;
  /** "" for global changes. */
  targetUserId: string;
  /** The action's details, as JSON text. */
  details: string;
  at: Date;
}

const auditSchema = new Schema<AuditDoc>(
  {
    _id: { type: String, required: true },
    actorId: { type: String, required: true },
    actorEmail: { type: String, default: "" },
    action: { type: String, required: true },
    targetUserId: { type: String, default: "" },
    details: { type: String, default: "{}" },
    at: { type: Date, required: true },
  },
  { collection: "admin_audit", versionKey: false, strict: "throw" },
);
auditSchema.index({ at: -1 });

export function auditModel(connection: Connection): Model<AuditDoc> {
  return modelOn<AuditDoc>(connection, "AdminAudit", auditSchema);
}

export type NewAuditEntry = Omit<AuditDoc, "_id" | "at"> & { id?: string };

export class AuditRepository {
  constructor(private readonly model: Model<AuditDoc>) {}

  /**
   * Appends an entry. @returns false when an entry with that id is there already (a retry).
   */
  append(entry: NewAuditEntry, at: Date): Promise<boolean> {
    const { id, ...rest } = entry;
    return insertOnce(this.model, { _id: id ?? randomUUID(), ...rest, at });
  }

  /** Newest first, one page. */
  async page(page: number, pageSize: number): Promise<{ entries: AuditDoc[]; count: number }> {
    const [entries, count] = await Promise.all([
      this.model
        .find({})
        .sort({ at: -1 })
        .skip((page - 1) * pageSize)
        .limit(pageSize)
        .lean<AuditDoc[]>(),
      this.model.countDocuments({}),
    ]);
    return { entries, count };
  }
}
