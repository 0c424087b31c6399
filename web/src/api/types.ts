import type { UserSettings } from "@crafter/validation";

/** Shapes of docs/api.md (the gateway contract). */

export interface AuthUser {
  userId: string;
  email: string;
  role: string;
  email_verified: boolean;
  clientId?: string;
  display_name?: string;
  iat?: number;
  exp?: number;
}

/** A visitor's session as the route guard reads it (spec section 4): none, signed in unverified, verified. */
export type SessionStatus = "anonymous" | "unverified" | "verified";

export interface SessionResult {
  user: AuthUser;
  expiresAt?: string;
}

export interface UserInfo {
  credits: number;
  credits_expire_at: string | null;
  display_name: string;
  email: string;
  image: string | null;
  isSubscribed: boolean;
  access: string[];
  role: string;
}

export interface FeatureFlags {
  enabledFeatures: string[];
  disabledFeatures: string[];
  allFeatures: string[];
}

export interface Profile {
  profileId: string;
  projectId: string;
  profileType: "PROJECT" | "PRODUCT" | "SERVICE" | "CAMPAIGN";
  name: string;
  description: string;
  audience?: string;
  keywords?: string[];
  websiteUrl?: string;
  fields?: Record<string, unknown>;
  /** The profile sections (crafts, profileReference, steps, results, profileItems, inputBindingValues). */
  sections?: Record<string, unknown>;
  updatedAt?: string | null;
  /** Where it is kept in sync from: "" (made here) or "shopify" (a store's product). */
  source?: string;
  /** The media library's copies of its images (a Shopify product's). */
  mediaAssetIds?: string[];
}

export interface CheckListItem {
  key: string;
  title: string;
  done: boolean;
}

export type CraftState = "NotInitialized" | "NotStarted" | "InProgress" | "Completed";
export type StepStatus = "inprogress" | "completed" | "skipped";

export interface CraftSummary {
  craftId: string;
  craftName: string;
  workflowName: string;
  projectId: string;
  /** The profile it writes for ("" or null for none). */
  profileId?: string | null;
  state: CraftState;
  createdAt: string;
  updatedAt: string;
  favorite?: boolean;
}

export interface ActiveProjectInfo {
  projectId: string | null;
  projectTitle: string | null;
  profile: Profile | null;
  /** docs/api.md names the check-list `projectCheckList`; older payloads say `checkList`. */
  projectCheckList?: CheckListItem[] | { checkList: CheckListItem[] } | null;
  crafts?: CraftSummary[];
  isCreatingProject?: boolean;
  resetProject?: boolean;
}

export interface InitialState {
  userInfo: UserInfo;
  featureFlag: FeatureFlags;
  activeProjectInfo: ActiveProjectInfo;
  userSettings: { settings: UserSettings };
}

export interface InputOption {
  label: string;
  value: string | number;
}

export interface StepInput {
  name: string;
  kind: string;
  label?: string;
  placeholder?: string;
  required?: boolean;
  options?: InputOption[];
  defaultValue?: unknown;
  /** Help text shown under the control. */
  description?: string;
  /** Characters per value (per item for list kinds). */
  maxLength?: number;
  /** Items of a list kind (chipText, bulletPoint). */
  maxItems?: number;
  /** Numbers for number/slider; `YYYY-MM-DD` bounds for datePicker/dateRangePicker. */
  min?: number | string;
  max?: number | string;
  step?: number;
  /** Format check (Url, DomainName, Email). */
  format?: string;
  /** craftPicker/inlineCraftPicker: `{ workflowNames }`; thirdPartyObjectPicker: `{ provider, objectType }`. */
  source?: { workflowNames?: string[]; provider?: string; objectType?: string } | null;
  /** Engine condition (docs/engine-contract.md section 1); the web evaluates it live. */
  showWhen?: unknown;
  /** Set by the server when showWhen was false for the saved values. */
  hidden?: boolean;
  /** InlineTextGenerator input: how its Generate button writes. */
  generator?: { prompt?: string; offline?: string; maxLength?: number } | null;
}

export interface ActionCommand {
  name: string;
  label: string;
}

export interface StepAction {
  kind: string;
  label?: string;
  resultMode?: "AppendResults" | "ReplaceResults";
  resultViewTrigger?: "Manual" | "AfterOpen";
  /** Results kept per step; AppendResults past it fails with ReachedMaxResults. */
  maxResults?: number;
  /** Credits one run costs. */
  credits?: number;
  /** InlineTextGenerator commands. */
  commands?: ActionCommand[];
}

export interface StepResult {
  id: string;
  content: unknown;
  format?: "text" | "html" | "list" | "data" | string;
  /** For list results: items per section key (content holds "## Heading" / "- item" lines). */
  sections?: Record<string, string[]>;
  /** FunctionCaller results: the JSON the function returned (e.g. the website audit summary). */
  data?: unknown;
  /** IteratorStep results: the item they were made for. */
  item?: unknown;
  itemIndex?: number;
  selected?: boolean;
  usage?: unknown;
  engine?: string;
  framework?: string;
  note?: string;
  createdAt?: string;
}

export interface CraftStep {
  name: string;
  title?: string;
  kind: "FormStep" | "IteratorStep" | string;
  state: CraftState;
  status: StepStatus;
  inputs?: StepInput[];
  values?: Record<string, unknown>;
  action?: StepAction | null;
  viewer?: string | null;
  results?: StepResult[];
  description?: string;
  /** A view step shows the results of this other step. */
  resultsFrom?: string;
  skipped?: boolean;
  /** IteratorStep: one entry per item its action runs for. */
  items?: IteratorItem[];
}

export interface IteratorItem {
  index: number;
  item: unknown;
  state: CraftState;
  resultIds: string[];
}

export interface WorkflowHeader {
  name: string;
  title: string;
  description: string;
  category: string;
  version: number | string;
  available: boolean;
  standalone?: boolean;
  new?: boolean;
}

export interface WorkflowHeaders {
  names: string[];
  headers: WorkflowHeader[];
  defaultVersions: Record<string, number | string>;
  toolsList: string[];
  newToolsList: string[];
}

/** `{ result, meta, craft }` of step/complete, RunAction and "generate more". */
export interface StepOutcome {
  result: unknown;
  meta: { warnings?: { field: string; message: string }[]; engine?: string; credits?: number } | null;
  craft: Craft | null;
}

export interface Craft extends CraftSummary {
  version: number;
  profileId: string | null;
  currentStep: string | null;
  steps: CraftStep[];
}

export interface CraftPage {
  crafts: CraftSummary[];
  total: number;
  page: number;
  totalPages: number;
}

export interface CreateProjectInput {
  name: string;
  description: string;
  audience?: string;
  keywords?: string[];
  websiteUrl?: string;
  /** IANA time zone of the business ("Europe/London"). */
  timeZone?: string;
}
