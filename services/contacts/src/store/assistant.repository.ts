import { idField, insertOnce, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { Scope } from "./contact.repository";

/** A project's lead assistant; `_id` is the public id the widget names. One per (user, project). */
export interface AssistantDoc {
  _id: string;
  userId: string;
  projectId: string;
  greeting: string;
  questions: string[];
  tone: string;
  enabled: boolean;
  /** The business profile and offerings as text, read from projects when the owner saved. */
  knowledge: string;
  businessName: string;
  updatedAt: Date;
}

export interface TranscriptMessage {
  role: "visitor" | "assistant";
  content: string;
  at: Date;
}

/** One visitor's conversation. Messages are appended ($push); `length` counts their characters. */
export interface SessionDoc {
  _id: string;
  assistantId: string;
  userId: string;
  projectId: string;
  messages: TranscriptMessage[];
  length: number;
  messageCount: number;
  details: { name?: string; email?: string };
  lead?: { name: string; email: string; contactId: string };
  createdAt: Date;
  updatedAt: Date;
}

const assistantSchema = new Schema<AssistantDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    greeting: { type: String, default: "" },
    questions: { type: [String], default: () => [] },
    tone: { type: String, default: "friendly" },
    enabled: { type: Boolean, default: false },
    knowledge: { type: String, default: "" },
    businessName: { type: String, default: "" },
    updatedAt: Date,
  },
  { collection: "lead_assistants", versionKey: false, minimize: false },
);
assistantSchema.index({ userId: 1, projectId: 1 }, { unique: true });

const sessionSchema = new Schema<SessionDoc>(
  {
    _id: idField,
    assistantId: { type: String, required: true },
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    messages: { type: Schema.Types.Mixed, default: () => [] },
    length: { type: Number, default: 0 },
    messageCount: { type: Number, default: 0 },
    details: { type: Schema.Types.Mixed, default: () => ({}) },
    lead: Schema.Types.Mixed,
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: "assistant_sessions", versionKey: false, minimize: false },
);
sessionSchema.index({ assistantId: 1 });

export function assistantModel(connection: Connection): Model<AssistantDoc> {
  return modelOn<AssistantDoc>(connection, "LeadAssistant", assistantSchema);
}
export function sessionModel(connection: Connection): Model<SessionDoc> {
  return modelOn<SessionDoc>(connection, "AssistantSession", sessionSchema);
}

export type AssistantSettings = Pick<AssistantDoc, "greeting" | "questions" | "tone" | "enabled">;

/** Lead assistants (by `_id` for the widget, by project for the owner) and their sessions. */
export class AssistantRepository {
  constructor(
    readonly assistants: Model<AssistantDoc>,
    readonly sessions: Model<SessionDoc>,
  ) {}

  async assistantOf(scope: Scope, defaults: AssistantSettings, now: Date): Promise<AssistantDoc> {
    const where = { userId: scope.userId, projectId: scope.projectId };
    const found = await this.assistants.findOne(where).lean<AssistantDoc>();
    if (found) return found;
    await insertOnce(this.assistants, { ...defaults, ...where, knowledge: "", businessName: "", updatedAt: now });
    const made = await this.assistants.findOne(where).lean<AssistantDoc>();
    if (!made) throw new Error("lead assistant not found after insert");
    return made;
  }

  byId(id: string): Promise<AssistantDoc | null> {
    return this.assistants.findById(id).lean<AssistantDoc>();
  }

  save(id: string, set: Partial<AssistantDoc>): Promise<AssistantDoc | null> {
    return this.assistants
      .findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: "after" })
      .lean<AssistantDoc>();
  }

  session(id: string): Promise<SessionDoc | null> {
    return this.sessions.findById(id).lean<SessionDoc>();
  }

  async startSession(doc: Omit<SessionDoc, "_id">): Promise<SessionDoc> {
    return (await this.sessions.create(doc)).toObject() as SessionDoc;
  }

  /** Appends messages (atomic $push/$inc on one document) and sets what the visitor told. */
  async append(id: string, messages: TranscriptMessage[], set: Partial<SessionDoc>): Promise<void> {
    const length = messages.reduce((sum, m) => sum + m.content.length, 0);
    await this.sessions.updateOne(
      { _id: id },
      {
        $push: { messages: { $each: messages } },
        $inc: { length, messageCount: messages.length },
        $set: { ...set, updatedAt: messages.at(-1)?.at },
      },
    );
  }

  /** One page of an assistant's sessions, newest first, without their messages. */
  async page(assistantId: string, page: number, pageSize: number): Promise<{ items: SessionDoc[]; count: number }> {
    const all = await this.sessions.find({ assistantId }, { messages: 0 }).lean<SessionDoc[]>();
    all.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
    return { items: all.slice((page - 1) * pageSize, page * pageSize), count: all.length };
  }
}
