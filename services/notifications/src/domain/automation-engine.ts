import { createHash } from "node:crypto";
import { addDays, type Day, isDay, monthDayOf, nextTimeOfDay } from "@crafter/time";
import type { Step, Trigger } from "./automation-model";
import { parseDuration } from "./automation-model";

/**
 * The automation engine's pure half: which step follows which, which events start a run, how long a
 * wait lasts, and the keys that make every step happen once per run (a redelivered event or a
 * retried job finds its key taken). The I/O half is src/usecases/automations-engine.ts.
 */

/** Where a step leads: the next step id, or null at the end of the run. */
export interface PlannedStep {
  step: Step;
  /** The step after this one (after a condition: where both branches join again). */
  next: string | null;
  /** A condition's first step on each branch (its `next` when the branch is empty). */
  yes?: string | null;
  no?: string | null;
}

/** A step tree flattened: every step by id, with its successors. */
export interface Plan {
  first: string | null;
  steps: ReadonlyMap<string, PlannedStep>;
}

/** Flattens a step tree (ids must be unique: the schema checks it). */
export function planOf(steps: readonly Step[]): Plan {
  const out = new Map<string, PlannedStep>();
  const walk = (list: readonly Step[], after: string | null): string | null => {
    for (let i = list.length - 1; i >= 0; i--) {
      const step = list[i]!;
      const planned: PlannedStep = { step, next: after };
      if (step.kind === "condition") {
        planned.yes = walk(step.yes, after);
        planned.no = walk(step.no, after);
      }
      out.set(step.id, planned);
      after = step.id;
    }
    return after;
  };
  const first = walk(steps, null);
  return { first, steps: out };
}

/** Whether any step of the tree (a condition's branches included) sends an email. */
export function sendsEmail(steps: readonly Step[]): boolean {
  return [...planOf(steps).steps.values()].some((planned) => planned.step.kind === "send_email");
}

/**
 * The step that follows `stepId`: for a condition, the first step of the branch taken.
 * @returns null at the end of the run, or when the step no longer exists (the automation was edited).
 */
export function nextStep(plan: Plan, stepId: string, branch?: "yes" | "no"): string | null {
  const planned = plan.steps.get(stepId);
  if (!planned) return null;
  if (planned.step.kind === "condition" && branch) return planned[branch] ?? null;
  return planned.next;
}

/** What happened to a contact, as the engine's triggers see it. */
export type ContactEvent =
  | { kind: "lead_captured" }
  | { kind: "contact_created" }
  | { kind: "tag_added"; tags: readonly string[] }
  | { kind: "segment_entered"; segmentIds: readonly string[] }
  | { kind: "email_opened" | "email_clicked"; campaignId: string; automationId: string }
  | { kind: "date_field"; field: string; offsetDays: number };

const norm = (s: string) => s.trim().toLowerCase();

/** Whether an event starts a run of an automation with this trigger. */
export function triggerMatches(trigger: Trigger, event: ContactEvent): boolean {
  if (trigger.kind !== event.kind) return false;
  switch (event.kind) {
    case "tag_added":
      return trigger.tag !== undefined && event.tags.some((t) => norm(t) === norm(trigger.tag!));
    case "segment_entered":
      return trigger.segmentId !== undefined && event.segmentIds.includes(trigger.segmentId);
    case "email_opened":
    case "email_clicked":
      // No campaign named: any email of the project (a campaign's or an automation's).
      return (
        !trigger.campaignId || trigger.campaignId === event.campaignId || trigger.campaignId === event.automationId
      );
    case "date_field":
      return trigger.field === event.field && (trigger.offsetDays ?? 0) === event.offsetDays;
    default:
      return true;
  }
}

/** The latest segment mark of a contact (see store/automation-trigger.repository.ts): odd seq is inside. */
export interface SegmentMark {
  seq: number;
  inside: boolean;
  eventId: string;
}

/**
 * What a contact event means for one segment: `write` is the mark to append (entering or leaving),
 * `start` the entry whose runs to start. An entry this event wrote before (its redelivery after a
 * crash) is started again, which startRuns makes harmless; an entry another event wrote starts
 * nothing here. Pure.
 */
export function segmentTransition(
  latest: SegmentMark | null,
  matches: boolean,
  eventId: string,
): { write?: { seq: number; inside: boolean }; start?: number } {
  const inside = latest?.inside ?? false;
  const seq = latest?.seq ?? 0;
  if (matches && !inside) return { write: { seq: seq + 1, inside: true }, start: seq + 1 };
  if (matches && latest && latest.eventId === eventId) return { start: seq };
  if (!matches && inside) return { write: { seq: seq + 1, inside: false } };
  return {};
}

/** The occurrence (runIdOf's third part) of a contact's n-th entry into a segment. */
export function segmentOccurrence(segmentId: string, seq: number): string {
  return `segment:${segmentId}:${seq}`;
}

/**
 * The month-day tokens (`MM-DD`) a date field must carry for its automation to run on `today`, the
 * business's local day (`YYYY-MM-DD` in its time zone): the day `offsetDays` before today
 * (offsetDays −3 runs three days before the date). In a year without 29 February, 28 February also
 * takes the dates of the 29th. Pure.
 */
export function monthDaysFor(today: Day, offsetDays: number): string[] {
  const day = addDays(today, -offsetDays);
  const token = monthDayOf(day);
  return token === "02-28" && !isDay(`${day.slice(0, 4)}-02-29`) ? [token, "02-29"] : [token];
}

/** The occurrence of a date field's run: the field and the business's local day it runs (once a year per contact). */
export function dateOccurrence(field: string, today: Day): string {
  return `date:${field}:${today}`;
}

/**
 * How long a wait step holds the run, in ms from `now` (0 when its time has passed). `scale`
 * shortens durations (AUTOMATION_WAIT_SCALE; 1 in production, e.g. 0.0001 in tests); a fixed time
 * (`until`) and a time of day (`at`, the next "HH:mm" on the wall clock of `zone`, the business's
 * time zone, daylight-saving changes included) are never scaled.
 */
export function waitDelayMs(step: Extract<Step, { kind: "wait" }>, now: Date, zone: string, scale = 1): number {
  if (step.at !== undefined) return nextTimeOfDay(now, step.at, zone).getTime() - now.getTime();
  if (step.until !== undefined) return Math.max(0, Date.parse(step.until) - now.getTime());
  const ms = parseDuration(step.duration ?? "") ?? 0;
  return Math.max(0, Math.round(ms * scale));
}

const hash = (...parts: string[]) => createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 32);

/**
 * A run's id: one run per automation, contact and trigger occurrence (the event's ce_id, or the day
 * of a date field), so a redelivered event starts nothing new.
 */
export function runIdOf(automationId: string, contactId: string, occurrence: string): string {
  return hash(automationId, contactId, occurrence);
}

/** The key of one step of one run: its step record's `_id`, and the idempotency key of its side effect. */
export function stepKey(runId: string, stepId: string): string {
  return `${runId}:${stepId}`;
}

/** The queue job id of a step (BullMQ refuses ':' in custom ids); adding it twice keeps one job. */
export function jobIdOf(runId: string, stepId: string): string {
  return `${runId}.${stepId}`;
}

/** The run's closing record's step id (a step id never contains '$'). */
export const END_STEP = "$end";
