import { isTimeOfDay } from "@crafter/time";
import { CONDITION_OPS } from "@crafter/workflow-language";
import { z } from "zod";
import { parseChannelId } from "./social-publishing";

/**
 * Automations' definitions (docs/email-contract.md "Automations"): a trigger, then a tree of steps.
 * One zod schema checks what the REST API, the RPCs and the templates give; the engine only runs
 * definitions that passed it. Pure.
 */

export const TRIGGER_KINDS = [
  "lead_captured",
  "contact_created",
  "tag_added",
  "segment_entered",
  "email_opened",
  "email_clicked",
  "date_field",
] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

export const STEP_KINDS = [
  "wait",
  "condition",
  "send_email",
  "add_tag",
  "remove_tag",
  "update_field",
  "notify_owner",
  "publish_social_post",
] as const;
export type StepKind = (typeof STEP_KINDS)[number];

export const AUTOMATION_STATUSES = ["draft", "active", "paused"] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];

/** Most steps an automation has in all (branches included), and deepest nesting of conditions. */
export const MAX_STEPS = 50;
export const MAX_DEPTH = 5;
/** Most channels a publish_social_post step names. */
export const MAX_STEP_CHANNELS = 10;

/**
 * A publish_social_post step's post, read from its craft when the automation is saved (the
 * engine runs without the user's session, so it keeps what the craft said then).
 */
export interface StepPost {
  title: string;
  text: string;
  /** The image's asset id in the media library ("" for a text post). */
  imageAssetId: string;
}

/** The longest wait: one year. */
export const MAX_WAIT_MS = 366 * 24 * 3600 * 1000;

/** Contact fields an update_field step may set: ContactInput's JSON names, or `custom.<key>`. */
export const UPDATABLE_FIELDS = ["firstName", "lastName", "phone", "company", "customerKind", "contactType"] as const;

const text = (name: string, max: number) =>
  z
    .string({ error: `${name} must be text` })
    .trim()
    .max(max, `${name} has at most ${max} characters`);

export const triggerSchema = z
  .object({
    kind: z.enum(TRIGGER_KINDS, { error: `trigger.kind is one of ${TRIGGER_KINDS.join(", ")}` }),
    tag: text("trigger.tag", 80).optional(),
    segmentId: text("trigger.segmentId", 64).optional(),
    campaignId: text("trigger.campaignId", 64).optional(),
    field: text("trigger.field", 80).optional(),
    offsetDays: z.number().int().min(-365).max(365).optional(),
  })
  .superRefine((t, ctx) => {
    if (t.kind === "tag_added" && !t.tag) ctx.addIssue({ code: "custom", path: ["tag"], message: "Choose a tag" });
    if (t.kind === "segment_entered" && !t.segmentId) {
      ctx.addIssue({ code: "custom", path: ["segmentId"], message: "Choose a segment" });
    }
    if (t.kind === "date_field" && !t.field) {
      ctx.addIssue({ code: "custom", path: ["field"], message: "Choose a date field" });
    }
  });
export type Trigger = z.infer<typeof triggerSchema>;

/** A rule of the segments' query JSON (react-querybuilder), with the 11 operators. */
export interface ConditionRule {
  field: string;
  operator: (typeof CONDITION_OPS)[number];
  value?: unknown;
}
export interface ConditionGroup {
  combinator: "and" | "or";
  not?: boolean;
  rules: Array<ConditionRule | ConditionGroup>;
}

const ruleSchema: z.ZodType<ConditionRule> = z.object({
  field: text("A condition's field", 120).min(1, "Choose a field"),
  operator: z.enum(CONDITION_OPS, { error: `operator is one of ${CONDITION_OPS.join(", ")}` }),
  value: z.unknown().optional(),
});
const groupSchema: z.ZodType<ConditionGroup> = z.lazy(() =>
  z.object({
    combinator: z.enum(["and", "or"], { error: "combinator is and or or" }),
    not: z.boolean().optional(),
    rules: z
      .array(z.union([ruleSchema, groupSchema]))
      .min(1, "A condition has at least one rule")
      .max(20),
  }),
);

const stepId = z
  .string({ error: "A step id is text" })
  .regex(/^[A-Za-z0-9_-]{1,40}$/, "A step id is 1 to 40 letters, digits, _ or -");

export type Step =
  /** Exactly one of: `duration` (ISO 8601), `until` (an instant), `at` (the next "HH:mm" in the business's zone). */
  | { id: string; kind: "wait"; duration?: string; until?: string; at?: string }
  | { id: string; kind: "condition"; query: ConditionGroup | ConditionRule; yes: Step[]; no: Step[] }
  | { id: string; kind: "send_email"; templateId?: string; subject?: string; html?: string; preheader?: string }
  | { id: string; kind: "add_tag" | "remove_tag"; tag: string }
  | { id: string; kind: "update_field"; field: string; value: string | number | boolean | null }
  | {
      id: string;
      kind: "notify_owner";
      title: string;
      body?: string;
      level?: "info" | "warning" | "success" | "error";
    }
  /**
   * Publishes a crafted social post (a SocialMediaPostWriter craft) through the publishing engine,
   * once per run: to `channelIds` (`<kind>:<remote id>`), or to the project's chosen channels when
   * empty. `post` is filled from the craft on save.
   */
  | { id: string; kind: "publish_social_post"; craftId: string; channelIds: string[]; post?: StepPost };

export const stepSchema: z.ZodType<Step> = z.lazy(() =>
  z.discriminatedUnion(
    "kind",
    [
      z
        .object({
          id: stepId,
          kind: z.literal("wait"),
          duration: z.string().max(40).optional(),
          until: z.string().max(40).optional(),
          at: z.string().max(5).optional(),
        })
        .superRefine((s, ctx) => {
          const given = [s.duration, s.until, s.at].filter((v) => v !== undefined).length;
          if (given !== 1) {
            ctx.addIssue({
              code: "custom",
              path: ["duration"],
              message: "A wait has one of a duration, a time or a time of day",
            });
          } else if (s.at !== undefined && !isTimeOfDay(s.at)) {
            ctx.addIssue({ code: "custom", path: ["at"], message: "A time of day is HH:mm, 00:00 to 23:59" });
          } else if (s.duration !== undefined && parseDuration(s.duration) === undefined) {
            ctx.addIssue({
              code: "custom",
              path: ["duration"],
              message: "A duration is ISO 8601 (PT1H, P2D, P1W), at most a year",
            });
          } else if (s.until !== undefined && Number.isNaN(Date.parse(s.until))) {
            ctx.addIssue({ code: "custom", path: ["until"], message: "until is an ISO date and time" });
          }
        }),
      z.object({
        id: stepId,
        kind: z.literal("condition"),
        query: z.union([groupSchema, ruleSchema]),
        yes: z.array(stepSchema).max(MAX_STEPS).default([]),
        no: z.array(stepSchema).max(MAX_STEPS).default([]),
      }),
      z
        .object({
          id: stepId,
          kind: z.literal("send_email"),
          templateId: text("templateId", 64).optional(),
          subject: text("subject", 200).optional(),
          html: z.string().max(200_000, "The email has at most 200,000 characters").optional(),
          preheader: text("preheader", 200).optional(),
        })
        .superRefine((s, ctx) => {
          if (!s.templateId && (!s.subject || !s.html)) {
            ctx.addIssue({
              code: "custom",
              path: ["subject"],
              message: "An email needs a template or a subject and a body",
            });
          }
        }),
      z.object({ id: stepId, kind: z.literal("add_tag"), tag: text("tag", 80).min(1, "Choose a tag") }),
      z.object({ id: stepId, kind: z.literal("remove_tag"), tag: text("tag", 80).min(1, "Choose a tag") }),
      z.object({
        id: stepId,
        kind: z.literal("update_field"),
        field: z
          .string()
          .refine(
            (f) => (UPDATABLE_FIELDS as readonly string[]).includes(f) || /^custom\.[A-Za-z0-9_-]{1,60}$/.test(f),
            `field is one of ${UPDATABLE_FIELDS.join(", ")} or custom.<key>`,
          ),
        value: z.union([z.string().max(500), z.number(), z.boolean(), z.null()]),
      }),
      z.object({
        id: stepId,
        kind: z.literal("notify_owner"),
        title: text("title", 200).min(1, "A notification has a title"),
        body: text("body", 1000).optional(),
        level: z.enum(["info", "warning", "success", "error"]).optional(),
      }),
      z.object({
        id: stepId,
        kind: z.literal("publish_social_post"),
        craftId: text("craftId", 64).min(1, "Choose a social post craft"),
        channelIds: z
          .array(
            z
              .string({ error: "A channel id is text" })
              .refine(
                (id) => parseChannelId(id) !== null,
                "A channel id is <kind>:<id> (facebook_page, instagram, tiktok)",
              ),
          )
          .max(MAX_STEP_CHANNELS, `A post goes to at most ${MAX_STEP_CHANNELS} channels`)
          .refine((ids) => new Set(ids).size === ids.length, "A channel is named once")
          .default([]),
        post: z
          .object({
            title: z.string().max(200),
            text: z.string().max(63_206),
            imageAssetId: z.string().max(64),
          })
          .optional(),
      }),
    ],
    { error: `A step's kind is one of ${STEP_KINDS.join(", ")}` },
  ),
) as z.ZodType<Step>;

/** Every step of a tree, conditions' branches included, in order. */
export function allSteps(steps: readonly Step[]): Step[] {
  return steps.flatMap((step) =>
    step.kind === "condition" ? [step, ...allSteps(step.yes), ...allSteps(step.no)] : [step],
  );
}

export const stepsSchema = z
  .array(stepSchema, { error: "steps is a list" })
  .max(MAX_STEPS)
  .superRefine((steps, ctx) => {
    const problem = treeProblem(steps);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** Unique ids, at most MAX_STEPS steps, conditions nested at most MAX_DEPTH deep. */
export function treeProblem(steps: readonly Step[]): string | undefined {
  const ids = new Set<string>();
  let problem: string | undefined;
  const visit = (list: readonly Step[], depth: number) => {
    if (depth > MAX_DEPTH) problem ??= `Conditions nest at most ${MAX_DEPTH} deep`;
    for (const step of list) {
      if (ids.has(step.id)) problem ??= `Two steps have the id ${step.id}`;
      ids.add(step.id);
      if (step.kind === "condition") {
        visit(step.yes, depth + 1);
        visit(step.no, depth + 1);
      }
    }
  };
  visit(steps, 1);
  if (ids.size > MAX_STEPS) problem ??= `An automation has at most ${MAX_STEPS} steps`;
  return problem;
}

/**
 * An ISO 8601 duration (`P1W`, `P2D`, `PT3H`, `P1DT12H`, `PT30M`, `PT10S`) in milliseconds.
 * Years and months are refused (their length varies). @returns undefined when invalid, zero or over a year.
 */
export function parseDuration(value: string): number | undefined {
  const m = /^P(?:(\d{1,3})W)?(?:(\d{1,3})D)?(?:T(?:(\d{1,4})H)?(?:(\d{1,5})M)?(?:(\d{1,7})S)?)?$/.exec(value.trim());
  if (!m || value.trim() === "P" || value.trim().endsWith("T")) return undefined;
  const [, w, d, h, min, s] = m.map((x) => Number(x ?? 0));
  const ms = ((((w ?? 0) * 7 + (d ?? 0)) * 24 + (h ?? 0)) * 60 + (min ?? 0)) * 60_000 + (s ?? 0) * 1000;
  return ms > 0 && ms <= MAX_WAIT_MS ? ms : undefined;
}

/** A definition from untrusted JSON text. @returns the parsed value or the first problem as `{ field: message }`. */
export function parseDefinition(
  triggerJson: string,
  stepsJson: string,
): { ok: true; trigger: Trigger; steps: Step[] } | { ok: false; fields: Record<string, string> } {
  let rawTrigger: unknown;
  let rawSteps: unknown;
  try {
    rawTrigger = triggerJson.trim() === "" ? { kind: "lead_captured" } : JSON.parse(triggerJson);
  } catch {
    return { ok: false, fields: { trigger: "trigger is not valid JSON" } };
  }
  try {
    rawSteps = stepsJson.trim() === "" ? [] : JSON.parse(stepsJson);
  } catch {
    return { ok: false, fields: { steps: "steps is not valid JSON" } };
  }
  const trigger = triggerSchema.safeParse(rawTrigger);
  if (!trigger.success) return { ok: false, fields: { trigger: firstIssue(trigger.error, "trigger") } };
  const steps = stepsSchema.safeParse(rawSteps);
  if (!steps.success) return { ok: false, fields: { steps: firstIssue(steps.error, "steps") } };
  return { ok: true, trigger: trigger.data, steps: steps.data };
}

function firstIssue(error: z.ZodError, root: string): string {
  const issue = error.issues[0];
  if (!issue) return `${root} is invalid`;
  const path = issue.path.length > 0 ? `${root}.${issue.path.join(".")}: ` : "";
  return `${path}${issue.message}`;
}
