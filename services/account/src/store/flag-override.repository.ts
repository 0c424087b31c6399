import { randomUUID } from "node:crypto";
import { idField, isDuplicateKey, modelOn, TenantRepository } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { FlagOverride } from "../domain/flags";

/** One user's override of one global flag. */
export interface FlagOverrideDoc {
  _id: string;
  userId: string;
  flag: string;
  enabled: boolean;
  updatedAt: Date;
}

const flagOverrideSchema = new Schema<FlagOverrideDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    flag: { type: String, required: true },
    enabled: { type: Boolean, required: true },
  },
  { collection: "flag_overrides", timestamps: { createdAt: false, updatedAt: true }, versionKey: false },
);
flagOverrideSchema.index({ userId: 1, flag: 1 }, { unique: true });

export function flagOverrideModel(connection: Connection): Model<FlagOverrideDoc> {
  return modelOn<FlagOverrideDoc>(connection, "FlagOverride", flagOverrideSchema);
}

/** Per-user flag overrides. */
export class FlagOverrideRepository extends TenantRepository<FlagOverrideDoc> {
  constructor(model: Model<FlagOverrideDoc>) {
    super(model, "userId");
  }

  /** The user's overrides, oldest change first. */
  async listForUser(userId: string): Promise<FlagOverride[]> {
    const docs = await this.model.find(this.scope(userId)).sort({ updatedAt: 1 }).lean<FlagOverrideDoc[]>();
    return docs.map((doc) => ({ flag: doc.flag, enabled: doc.enabled }));
  }

  /** Turns `flag` on or off for one user (creates or replaces the override). */
  async set(userId: string, flag: string, enabled: boolean): Promise<void> {
    const update = () =>
      this.model.updateOne(
        this.scope(userId, { flag }),
        { $set: { enabled }, $setOnInsert: { _id: randomUUID(), userId, flag } },
        { upsert: true, setDefaultsOnInsert: false },
      );
    try {
      await update();
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      await update();
    }
  }
}
