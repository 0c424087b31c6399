import { randomUUID } from "node:crypto";
import { idField, isDuplicateKey, modelOn, TenantRepository } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/**
 * One setting a user changed from its default (spec section 3); defaults are not stored.
 * One document per (user, key) rather than one per user: FerretDB 1.24 applies updates as
 * read-modify-write of the whole document, so two concurrent `$set`s of different keys in one
 * document lose one of them (measured). Separate documents make keys independent.
 */
export interface SettingDoc {
  _id: string;
  userId: string;
  key: string;
  value: unknown;
  updatedAt: Date;
}

const settingSchema = new Schema<SettingDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    key: { type: String, required: true },
    value: { type: Schema.Types.Mixed, required: true },
  },
  {
    collection: "user_settings",
    timestamps: { createdAt: false, updatedAt: true },
    versionKey: false,
    minimize: false,
  },
);
settingSchema.index({ userId: 1, key: 1 }, { unique: true });

export function settingModel(connection: Connection): Model<SettingDoc> {
  return modelOn<SettingDoc>(connection, "UserSetting", settingSchema);
}

/** The settings each user changed, one document per key. */
export class SettingsRepository extends TenantRepository<SettingDoc> {
  constructor(model: Model<SettingDoc>) {
    super(model, "userId");
  }

  /** The user's stored settings (only what they changed), keyed by setting name; {} when none. */
  async get(userId: string): Promise<Record<string, unknown>> {
    const docs = await this.model.find(this.scope(userId)).lean<SettingDoc[]>();
    return Object.fromEntries(docs.map((doc) => [doc.key, doc.value]));
  }

  /**
   * Stores each key of `patch` for the user (create or replace, per key). Concurrent updates of
   * different keys all survive; of the same key, the last write wins.
   * @param patch validated, non-empty values keyed by setting name.
   * @returns the user's stored settings after the update.
   */
  async apply(userId: string, patch: Record<string, unknown>): Promise<Record<string, unknown>> {
    await Promise.all(Object.entries(patch).map(([key, value]) => this.put(userId, key, value)));
    return this.get(userId);
  }

  private async put(userId: string, key: string, value: unknown): Promise<void> {
    const update = () =>
      this.model.updateOne(
        this.scope(userId, { key }),
        { $set: { value }, $setOnInsert: { _id: randomUUID(), userId, key } },
        { upsert: true, setDefaultsOnInsert: false },
      );
    try {
      await update();
    } catch (error) {
      // A concurrent first write of the same key inserted it; ours now updates it.
      if (!isDuplicateKey(error)) throw error;
      await update();
    }
  }
}
