import { splitDraft } from "@crafter/email-language";
import { countLabel } from "../../shared/format";
import type { Operator, Step, StepKind, TriggerKind } from "./types";

/** The flow builder's pure half: labels, new steps, edits of the step tree by step id, durations. */

export const TRIGGER_LABELS: Record<TriggerKind, string> = {
  lead_captured: "A lead is captured",
  contact_created: "A contact is created",
  tag_added: "A tag is added",
  segment_entered: "A contact enters a segment",
  email_opened: "An email is opened",
  email_clicked: "An email link is clicked",
  date_field: "A date field comes round (birthday, anniversary)",
};

/** A date field a date_field trigger can watch, as the builder offers it. */
export interface DateFieldOption {
  value: string;
  label: string;
}

/**
 * The date fields of the project's contacts a date_field trigger can watch: "Customer since" (an
 * anniversary), then every custom field of type date (a birthday…) as `custom.<key>`.
 */
export function dateFieldOptions(customFields: ReadonlyArray<{ key: string; label: string; type: string }>) {
  const out: DateFieldOption[] = [{ value: "customerSince", label: "Customer since (anniversary)" }];
  for (const f of customFields) if (f.type === "date") out.push({ value: `custom.${f.key}`, label: f.label });
  return out;
}

/** How a date_field trigger's offset reads: "On the day", "3 days before", "1 day after". */
export function offsetLabel(offsetDays: number | undefined): string {
  const n = offsetDays ?? 0;
  if (n === 0) return "On the day";
  const days = countLabel(Math.abs(n), "day");
  return n < 0 ? `${days} before` : `${days} after`;
}

export const STEP_LABELS: Record<StepKind, string> = {
  wait: "Wait",
  condition: "Condition",
  send_email: "Send email",
  add_tag: "Add tag",
  remove_tag: "Remove tag",
  update_field: "Update field",
  notify_owner: "Notify me",
  publish_social_post: "Publish a social post",
};

export const OPERATORS: readonly Operator[] = [
  "==",
  "!=",
  ">",
  "<",
  ">=",
  "<=",
  "hasValue",
  "in",
  "not in",
  "contains",
  "notContains",
];

/** Every step id in the tree, branches included. */
export function stepIds(steps: readonly Step[]): string[] {
  return steps.flatMap((s) => [s.id, ...(s.kind === "condition" ? [...stepIds(s.yes), ...stepIds(s.no)] : [])]);
}

/** Whether any step of the tree (branches included) sends an email: then it needs the business's postal address. */
export function sendsEmail(steps: readonly Step[]): boolean {
  return steps.some(
    (s) => s.kind === "send_email" || (s.kind === "condition" && (sendsEmail(s.yes) || sendsEmail(s.no))),
  );
}

/** A fresh id for a new step of `kind`, unique in the tree (`email-2`, `wait-3`…). */
export function freshId(kind: StepKind, steps: readonly Step[]): string {
  const taken = new Set(stepIds(steps));
  const base = kind.replaceAll("_", "-");
  for (let n = 1; ; n++) {
    const id = `${base}-${n}`;
    if (!taken.has(id)) return id;
  }
}

/**
 * A send-email step filled from an email craft's final draft (its Subject and Preheader lines and
 * its body), a copy the user then edits; null when the craft has no HTML draft yet.
 */
export function emailStepFromDraft(draftHtml: string | null, steps: readonly Step[]): Step | null {
  if (!draftHtml) return null;
  const { subject, preheader, body } = splitDraft(draftHtml);
  if (!body.trim()) return null;
  return { id: freshId("send_email", steps), kind: "send_email", subject, preheader, html: body };
}

/** A new step with sensible defaults. */
export function newStep(kind: StepKind, steps: readonly Step[]): Step {
  const id = freshId(kind, steps);
  switch (kind) {
    case "wait":
      return { id, kind, duration: "P1D" };
    case "condition":
      return {
        id,
        kind,
        query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: "" }] },
        yes: [],
        no: [],
      };
    case "send_email":
      return { id, kind, subject: "", html: '<p>Hi {{contact.firstName | "there"}},</p>' };
    case "add_tag":
    case "remove_tag":
      return { id, kind, tag: "" };
    case "update_field":
      return { id, kind, field: "contactType", value: "" };
    case "notify_owner":
      return { id, kind, title: "", level: "info" };
    case "publish_social_post":
      return { id, kind, craftId: "", channelIds: [] };
  }
}

type Where = { parentId: string | null; branch?: "yes" | "no" };

function mapLists(steps: Step[], where: Where, edit: (list: Step[]) => Step[]): Step[] {
  if (where.parentId === null) return edit(steps);
  return steps.map((s) => {
    if (s.kind !== "condition") return s;
    if (s.id === where.parentId && where.branch) return { ...s, [where.branch]: edit(s[where.branch]) };
    return { ...s, yes: mapLists(s.yes, where, edit), no: mapLists(s.no, where, edit) };
  });
}

/** Appends a step to the top list (parentId null) or to a condition's branch. */
export function addStep(steps: Step[], where: Where, step: Step): Step[] {
  return mapLists(steps, where, (list) => [...list, step]);
}

/** Replaces the step with `step.id`, wherever it is. */
export function replaceStep(steps: Step[], step: Step): Step[] {
  return steps.map((s) => {
    if (s.id === step.id) return step;
    if (s.kind === "condition") return { ...s, yes: replaceStep(s.yes, step), no: replaceStep(s.no, step) };
    return s;
  });
}

/** Removes a step (a condition with its branches). */
export function removeStep(steps: Step[], id: string): Step[] {
  return steps
    .filter((s) => s.id !== id)
    .map((s) => (s.kind === "condition" ? { ...s, yes: removeStep(s.yes, id), no: removeStep(s.no, id) } : s));
}

/** Moves a step up (-1) or down (+1) within its own list; at an end nothing changes. */
export function moveStep(steps: Step[], id: string, delta: -1 | 1): Step[] {
  const at = steps.findIndex((s) => s.id === id);
  if (at >= 0) {
    const to = at + delta;
    if (to < 0 || to >= steps.length) return steps;
    const out = [...steps];
    [out[at], out[to]] = [out[to]!, out[at]!];
    return out;
  }
  return steps.map((s) =>
    s.kind === "condition" ? { ...s, yes: moveStep(s.yes, id, delta), no: moveStep(s.no, id, delta) } : s,
  );
}

export type DurationUnit = "minutes" | "hours" | "days" | "weeks";

/** An ISO 8601 duration as an amount and a unit (`P2D` → 2 days); null when it is not one of them. */
export function durationParts(iso: string | undefined): { amount: number; unit: DurationUnit } | null {
  const m = /^P(?:(\d+)W|(\d+)D|T(\d+)H|T(\d+)M)$/.exec(iso ?? "");
  if (!m) return null;
  if (m[1]) return { amount: Number(m[1]), unit: "weeks" };
  if (m[2]) return { amount: Number(m[2]), unit: "days" };
  if (m[3]) return { amount: Number(m[3]), unit: "hours" };
  return { amount: Number(m[4]), unit: "minutes" };
}

export function isoDuration(amount: number, unit: DurationUnit): string {
  const n = Math.max(1, Math.floor(amount));
  return unit === "weeks" ? `P${n}W` : unit === "days" ? `P${n}D` : unit === "hours" ? `PT${n}H` : `PT${n}M`;
}

/** One line about a step, for the list and the run history. */
export function describeStep(step: Step): string {
  switch (step.kind) {
    case "wait": {
      if (step.at) return `Wait until ${step.at} (business time)`;
      if (step.until) return `Wait until ${new Date(step.until).toLocaleString()}`;
      const d = durationParts(step.duration);
      return d ? `Wait ${countLabel(d.amount, d.unit.slice(0, -1), d.unit)}` : `Wait ${step.duration ?? ""}`;
    }
    case "condition":
      return `If ${countLabel(step.query.rules.length, "rule")} ${step.query.combinator === "or" ? "(any)" : "(all)"} hold`;
    case "send_email":
      return `Send “${step.subject || "(no subject)"}”`;
    case "add_tag":
      return `Add tag ${step.tag || "…"}`;
    case "remove_tag":
      return `Remove tag ${step.tag || "…"}`;
    case "update_field":
      return `Set ${step.field} to ${String(step.value ?? "")}`;
    case "notify_owner":
      return `Notify me: ${step.title || "…"}`;
    case "publish_social_post":
      return `Publish “${step.post?.title || "a social post"}”${step.channelIds.length ? ` to ${countLabel(step.channelIds.length, "channel")}` : ""}`;
  }
}
