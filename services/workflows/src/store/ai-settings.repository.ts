import { modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { UserProvider } from "../domain/ai-settings";

/** One user's AI provider: `_id` is the user id; the key only sealed (the kit's crypto/secret-box.ts). */
export interface AiSettingsDoc {
  _id: string;
  provider: UserProvider;
  baseUrl: string;
  defaultModel: string;
  workflowModels: Record<string, string>;
  /** `v1.<iv>.<tag>.<ciphertext>`, sealed for `_id`; "" when the provider needs no key. */
  keySealed: string;
  keyLast4: string;
  updatedAt: Date;
}

const schema = new Schema<AiSettingsDoc>(
  {
    _id: { type: String, required: true },
    provider: { type: String, required: true },
    baseUrl: { type: String, default: "" },
    defaultModel: { type: String, required: true },
    workflowModels: { type: Schema.Types.Mixed, default: {} },
    keySealed: { type: String, default: "" },
    keyLast4: { type: String, default: "" },
    updatedAt: { type: Date, required: true },
  },
  { versionKey: false, minimize: false },
);

/** The `ai_settings` collection: read by `_id` only (the hot path caches it, see user-engines.ts). */
export class AiSettingsRepository {
  constructor(private readonly model: Model<AiSettingsDoc>) {}

  async get(userId: string): Promise<AiSettingsDoc | null> {
    return this.model.findById(userId).lean<AiSettingsDoc>().exec();
  }

  /** Replaces the user's settings whole (one document per user; the last save wins). */
  async put(doc: AiSettingsDoc): Promise<void> {
    await this.model.replaceOne({ _id: doc._id }, doc, { upsert: true }).exec();
  }

  async delete(userId: string): Promise<void> {
    await this.model.deleteOne({ _id: userId }).exec();
  }
}

export function aiSettingsModel(connection: Connection): Model<AiSettingsDoc> {
  return modelOn(connection, "AiSettings", schema, "ai_settings");
}
