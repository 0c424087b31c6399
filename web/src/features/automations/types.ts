/** The REST shapes of docs/email-contract.md "Automations". */

export type TriggerKind =
  | "lead_captured"
  | "contact_created"
  | "tag_added"
  | "segment_entered"
  | "email_opened"
  | "email_clicked"
  | "date_field";

export interface Trigger {
  kind: TriggerKind;
  tag?: string;
  segmentId?: string;
  campaignId?: string;
  field?: string;
  offsetDays?: number;
}

export type Operator =
  | "=="
  | "!="
  | ">"
  | "<"
  | ">="
  | "<="
  | "hasValue"
  | "in"
  | "not in"
  | "contains"
  | "notContains";

export interface ConditionRule {
  field: string;
  operator: Operator;
  value?: unknown;
}

export interface ConditionGroup {
  combinator: "and" | "or";
  not?: boolean;
  rules: Array<ConditionRule | ConditionGroup>;
}

export type Step =
  /** One of: `duration` (ISO 8601), `until` (an instant), `at` (the next "HH:mm" in the business's time zone). */
  | { id: string; kind: "wait"; duration?: string; until?: string; at?: string }
  | { id: string; kind: "condition"; query: ConditionGroup; yes: Step[]; no: Step[] }
  | { id: string; kind: "send_email"; subject?: string; html?: string; preheader?: string; templateId?: string }
  | { id: string; kind: "add_tag" | "remove_tag"; tag: string }
  | { id: string; kind: "update_field"; field: string; value: string | number | boolean | null }
  | {
      id: string;
      kind: "notify_owner";
      title: string;
      body?: string;
      level?: "info" | "warning" | "success" | "error";
    }
  /** A social post craft published to `channelIds` (none: the project's chosen channels); `post` is read from the craft on save. */
  | {
      id: string;
      kind: "publish_social_post";
      craftId: string;
      channelIds: string[];
      post?: { title: string; text: string; imageAssetId: string };
    };

export type StepKind = Step["kind"];

export interface Automation {
  id: string;
  projectId: string;
  name: string;
  status: "draft" | "active" | "paused";
  trigger: Trigger;
  steps: Step[];
  stats: { running: number; completed: number; failed: number };
  createdAt: string | null;
  updatedAt: string | null;
}

export interface AutomationTemplate {
  id: string;
  name: string;
  description: string;
  trigger: Trigger;
  steps: Step[];
}

export interface StepRecord {
  stepId: string;
  kind: string;
  status: string;
  detail: string;
  at: string | null;
}

export interface AutomationRun {
  id: string;
  automationId: string;
  automationName: string;
  contactId: string;
  email: string;
  status: "running" | "completed" | "failed";
  currentStepId: string;
  startedAt: string | null;
  endedAt: string | null;
  steps: StepRecord[];
}

export type { Page as Paged } from "../../api/contract";
