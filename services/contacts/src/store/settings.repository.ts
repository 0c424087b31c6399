import { modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

export interface CustomFieldSetting {
  key: string;
  label: string;
  type: "text" | "number" | "date" | "select" | "boolean";
  options?: string[];
}

export interface LabelledKey {
  key: string;
  label: string;
}

/** A project's settings lists; `_id` = `<userId>:<projectId>`. A save replaces one list whole. */
export interface SettingsDoc {
  _id: string;
  customFields: CustomFieldSetting[];
  interactionTypes: LabelledKey[];
  contactTypes: LabelledKey[];
  updatedAt: Date;
}

const settingsSchema = new Schema<SettingsDoc>(
  {
    _id: String,
    customFields: { type: Schema.Types.Mixed, default: () => [] },
    interactionTypes: { type: Schema.Types.Mixed, default: () => [] },
    contactTypes: { type: Schema.Types.Mixed, default: () => [] },
    updatedAt: Date,
  },
  { collection: "settings", versionKey: false, minimize: false },
);

export function settingsModel(connection: Connection): Model<SettingsDoc> {
  return modelOn<SettingsDoc>(connection, "ContactSettings", settingsSchema);
}

export type Settings = Omit<SettingsDoc, "_id" | "updatedAt">;

/** The lists a project starts with (the user edits them in settings). */
export const DEFAULT_SETTINGS: Settings = {
  customFields: [],
  interactionTypes: [
    { key: "call", label: "Call" },
    { key: "email", label: "Email" },
    { key: "meeting", label: "Meeting" },
    { key: "note", label: "Note" },
    { key: "form", label: "Form submission" },
  ],
  contactTypes: [
    { key: "lead", label: "Lead" },
    { key: "customer", label: "Customer" },
    { key: "partner", label: "Partner" },
  ],
};

/** Settings lists by project, read by `_id`. */
export class SettingsRepository {
  constructor(readonly model: Model<SettingsDoc>) {}

  async get(userId: string, projectId: string): Promise<Settings> {
    const doc = await this.model.findById(`${userId}:${projectId}`).lean<SettingsDoc>();
    return {
      customFields: doc?.customFields ?? DEFAULT_SETTINGS.customFields,
      interactionTypes: doc?.interactionTypes ?? DEFAULT_SETTINGS.interactionTypes,
      contactTypes: doc?.contactTypes ?? DEFAULT_SETTINGS.contactTypes,
    };
  }

  /** Replaces the lists given (last writer wins: one user edits their own settings page). */
  async save(userId: string, projectId: string, lists: Partial<Settings>, at: Date): Promise<Settings> {
    const current = await this.get(userId, projectId);
    const next = { ...current, ...lists };
    await this.model.replaceOne({ _id: `${userId}:${projectId}` }, { ...next, updatedAt: at }, { upsert: true });
    return next;
  }
}
