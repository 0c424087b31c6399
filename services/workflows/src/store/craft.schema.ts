import { idField, modelOn, type OutboxEntry, outboxField, outboxMinuteField, outboxMinuteOf } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { CraftState, ProfileSnapshot, ResultRecord, StepRecord, StepState } from "../domain/types";

/** A craft document: one workflow instance of one user, with its steps, results and outbox. */
export interface CraftDoc {
  _id: string;
  /** The tenant: every query is scoped to it. */
  userId: string;
  projectId: string;
  profileId: string;
  workflowName: string;
  workflowVersion: number;
  /** The name it was created with, or the user's once renamed (`nameFromUser`). */
  craftName: string;
  /** True once the user named the craft: its content no longer names it. */
  nameFromUser?: boolean;
  /** The name its content gives it ("" while none), kept with every change of the steps. */
  contentName?: string;
  /** Words of its name (with prefixes) and text, for token-equality search (domain/craft-index.ts). */
  searchTokens?: string[];
  state: CraftState;
  currentStep: string;
  steps: StepRecord[];
  /** The profile fields used for prefill, as they were when the craft was created. */
  profile: ProfileSnapshot | null;
  usage: { inputTokens: number; outputTokens: number; generations: number };
  favorite: boolean;
  /** Set when the user deletes the craft: it leaves every read (the outbox still relays). */
  deletedAt: Date | null;
  /** Bumped by every change of the steps; updates compare it so none is lost. */
  rev: number;
  completedAt: Date | null;
  outbox: OutboxEntry[];
  /** Minute of the newest outbox entry, for the relay (kit events/outbox.ts). */
  outboxMinute?: number;
  createdAt: Date;
  updatedAt: Date;
}

const STEP_STATES: StepState[] = ["NotInitialized", "NotStarted", "InProgress", "Completed"];
const CRAFT_STATES: CraftState[] = ["NotStarted", "InProgress", "Completed"];

type StoredResult = Omit<ResultRecord, "data" | "item"> & { data?: unknown; item?: unknown };

const resultSchema = new Schema<StoredResult>(
  {
    id: { type: String, required: true },
    content: { type: String, required: true },
    format: { type: String, enum: ["text", "html", "list", "data"], required: true },
    sections: { type: Schema.Types.Mixed },
    data: { type: Schema.Types.Mixed },
    item: { type: Schema.Types.Mixed },
    itemIndex: Number,
    selected: Boolean,
    engine: { type: String, required: true },
    framework: String,
    note: String,
    usage: {
      inputTokens: { type: Number, default: 0 },
      outputTokens: { type: Number, default: 0 },
    },
    createdAt: { type: Date, required: true },
  },
  { _id: false, minimize: false },
);

// Values hold any JSON; mongoose's typings cannot walk the recursive JsonValue type, so the
// sub-schema is declared over a flat shape (the document type above stays exact).
type StoredStep = Omit<StepRecord, "values" | "defaults" | "items" | "results"> & {
  results: StoredResult[];
  values: object;
  defaults: object;
  items?: unknown[];
};

const stepSchema = new Schema<StoredStep>(
  {
    name: { type: String, required: true },
    state: { type: String, enum: STEP_STATES, required: true },
    values: { type: Schema.Types.Mixed, default: () => ({}) },
    defaults: { type: Schema.Types.Mixed, default: () => ({}) },
    results: { type: [resultSchema], default: [] },
    completedAt: { type: Date, default: null },
    skipped: Boolean,
    items: { type: [Schema.Types.Mixed], default: undefined },
  },
  { _id: false, minimize: false },
);

const craftSchema = new Schema<CraftDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    profileId: { type: String, default: "" },
    workflowName: { type: String, required: true },
    workflowVersion: { type: Number, required: true },
    craftName: { type: String, required: true },
    nameFromUser: { type: Boolean, default: false },
    contentName: { type: String, default: "" },
    searchTokens: { type: [String], default: [] },
    state: { type: String, enum: CRAFT_STATES, required: true },
    currentStep: { type: String, required: true },
    steps: { type: [stepSchema], default: [] },
    profile: {
      type: new Schema<ProfileSnapshot>(
        {
          profileId: String,
          name: String,
          description: String,
          audience: String,
          keywords: [String],
          websiteUrl: String,
          type: String,
          fields: Schema.Types.Mixed,
        },
        { _id: false, minimize: false },
      ),
      default: null,
    },
    usage: {
      inputTokens: { type: Number, default: 0 },
      outputTokens: { type: Number, default: 0 },
      generations: { type: Number, default: 0 },
    },
    rev: { type: Number, default: 0 },
    completedAt: { type: Date, default: null },
    favorite: { type: Boolean, default: false },
    deletedAt: { type: Date, default: null },
    outbox: outboxField,
    outboxMinute: outboxMinuteField,
  },
  { timestamps: true, minimize: false, versionKey: false },
);
// A new craft's outbox (CraftCreated) is polled by minute too.
craftSchema.pre("save", function () {
  const newest = this.outbox?.at(-1);
  if (newest) this.set("outboxMinute", outboxMinuteOf(newest.time));
});
// ListCrafts: a user's crafts of a project, newest first (compound indexes work on FerretDB too).
craftSchema.index({ userId: 1, projectId: 1, createdAt: -1 });
craftSchema.index({ userId: 1, createdAt: -1 });
// Contents search: "array contains token" is pushed down (ADR 0001), one GIN twin per key.
craftSchema.index({ userId: 1, searchTokens: 1 });

export function craftModel(connection: Connection): Model<CraftDoc> {
  return modelOn<CraftDoc>(connection, "Craft", craftSchema, "crafts");
}
