import type { JsonValue } from "@bufbuild/protobuf";

/** Craft step states (spec section 3). */
export type StepState = "NotInitialized" | "NotStarted" | "InProgress" | "Completed";
/** Step status (spec section 3); "skipped" for steps a skipWhen condition leaves out. */
export type StepStatus = "inprogress" | "completed" | "skipped";
/** A craft is NotStarted until something is saved or completed, Completed when its last step is. */
export type CraftState = "NotStarted" | "InProgress" | "Completed";

export type Values = Record<string, JsonValue>;

/** The profile fields a craft prefills from, copied when the craft is created. */
export interface ProfileSnapshot {
  profileId: string;
  name: string;
  description: string;
  audience: string;
  keywords: string[];
  websiteUrl: string;
  /** PROJECT, PRODUCT, SERVICE or CAMPAIGN (absent in crafts stored before profiles had types). */
  type?: string;
  /** The type-specific fields (featureList, startDate…; spec names). */
  fields?: Record<string, JsonValue>;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
}

/** One generated result of a step's action. */
export interface ResultRecord {
  id: string;
  /** The text as shown: HTML for "html", `## heading` / `- item` lines for "list". */
  content: string;
  format: "text" | "html" | "list" | "data";
  /** For "list" (and "data" with sections): the items of each section, by section key. */
  sections?: Record<string, string[]>;
  /** For "data": a function's JSON answer (e.g. the audit summary). */
  data?: JsonValue;
  /** IteratorStep: the item this result was written for, and its index (from 0). */
  item?: JsonValue;
  itemIndex?: number;
  /** Chosen by the user (select viewers). */
  selected?: boolean;
  /** "offline" or the provider's model id. */
  engine: string;
  /** The copywriting framework the offline engine wrote with. */
  framework?: string;
  /** Says how the result was made when that matters to the reader (the offline engine). */
  note?: string;
  usage: TokenUsage;
  createdAt: Date;
}

export interface StepRecord {
  name: string;
  state: StepState;
  values: Values;
  /** The prefilled values computed when the step opened (shown as each input's defaultValue). */
  defaults: Values;
  results: ResultRecord[];
  completedAt?: Date | null;
  /** Completed without running: its skipWhen held (or, in crafts made before, its action was not built yet). */
  skipped?: boolean;
  /** IteratorStep: the items its action runs over, fixed when the step opens. */
  items?: JsonValue[];
}

/** The part of a craft the step state machine reads and writes. */
export interface CraftProgress {
  state: CraftState;
  currentStep: string;
  steps: StepRecord[];
}

/** A craft as stored, in the terms of the domain. */
export interface CraftRecord extends CraftProgress {
  id: string;
  userId: string;
  projectId: string;
  profileId: string;
  workflowName: string;
  workflowVersion: number;
  craftName: string;
  profile: ProfileSnapshot | null;
  usage: TokenUsage & { generations: number };
  /** Starred by the user (GET /api/workflowsV2?favorites=true). */
  favorite?: boolean;
  /** True once the user named the craft; else it shows `contentName` when it has one. */
  nameFromUser?: boolean;
  contentName?: string;
  createdAt: Date;
  updatedAt: Date;
}
