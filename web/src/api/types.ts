import type { UserSettings } from "@crafter/kit/validation";

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
  state: CraftState;
  createdAt: string;
  updatedAt: string;
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
  min?: number;
  max?: number;
}

export interface StepAction {
  kind: string;
  label?: string;
  resultMode?: "AppendResults" | "ReplaceResults";
  resultViewTrigger?: "Manual" | "AfterOpen";
}

export interface StepResult {
  id: string;
  content: unknown;
  format?: "text" | "html" | "list" | string;
  /** For list results: items per section key (content holds "## Heading" / "- item" lines). */
  sections?: Record<string, string[]>;
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
}
