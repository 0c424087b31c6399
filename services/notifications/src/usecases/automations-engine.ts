import type { NotificationsDeps } from "../deps";
import {
  type ContactEvent,
  END_STEP,
  jobIdOf,
  nextStep,
  planOf,
  runIdOf,
  stepKey,
  triggerMatches,
  waitDelayMs,
} from "../domain/automation-engine";
import type { Step } from "../domain/automation-model";
import { MISSING_ADDRESS } from "../domain/campaign-rules";
import type { StepRecordDoc } from "../store/automation-run.repository";

type Deps = Pick<NotificationsDeps, "stores" | "automations" | "logger" | "now" | "zones">;

/** A send_email step's failure while the business profile has no postal address. */
export const NOT_SENT_NO_ADDRESS = `Not sent: the business profile has no postal address. ${MISSING_ADDRESS}`;

/** A contact event that may start runs (from Kafka: LeadCaptured, ContactCreated, ContactTagged…). */
export interface TriggerInput {
  /** The event's ce_id: one run per automation, contact and event. */
  eventId: string;
  userId: string;
  projectId: string;
  contactId: string;
  email: string;
  event: ContactEvent;
}

/**
 * Starts a run of every active automation of the project whose trigger the event matches, and queues
 * its first step. A redelivered event finds its runs and only re-queues a first step that has not
 * run yet (the queue keeps one job per step). @returns how many runs this call started.
 */
export async function startRuns(deps: Deps, input: TriggerInput): Promise<number> {
  if (!input.userId || !input.projectId || !input.contactId) return 0;
  const automations = await deps.stores.automations.activeWithTrigger(input.userId, input.projectId, input.event.kind);
  let started = 0;
  for (const automation of automations) {
    if (!triggerMatches(automation.trigger, input.event)) continue;
    const plan = planOf(automation.steps);
    if (!plan.first) continue;
    const runId = runIdOf(automation.id, input.contactId, input.eventId);
    const fresh = await deps.stores.automationRuns.startRun({
      _id: runId,
      userId: input.userId,
      projectId: input.projectId,
      automationId: automation.id,
      automationName: automation.name,
      contactId: input.contactId,
      email: input.email,
      status: "running",
      currentStepId: plan.first,
      startedAt: deps.now(),
      endedAt: null,
    });
    if (fresh) started++;
    else {
      const run = await deps.stores.automationRuns.run(runId);
      if (run?.status !== "running" || run.currentStepId !== plan.first) continue;
    }
    await deps.automations.queue.enqueue(runId, plan.first, 0);
  }
  if (started > 0)
    deps.logger.info({ eventId: input.eventId, started, kind: input.event.kind }, "automation runs started");
  return started;
}

/** A step that cannot succeed however often it is retried (the contact is gone, a template is missing). */
export class PermanentStepError extends Error {}

/**
 * Runs one step of one run, once: a step whose record exists is not run again, only followed. Then
 * queues the next step (after a wait, delayed until it is due) or ends the run. A paused automation
 * holds the step until it is activated; a deleted one ends the run.
 * @throws when the step's effect failed and may succeed on a retry (the queue retries with backoff).
 */
export async function executeStep(deps: Deps, runId: string, stepId: string): Promise<void> {
  const runs = deps.stores.automationRuns;
  const run = await runs.run(runId);
  if (run?.status !== "running") return;
  const automation = await deps.stores.automations.byId(run.automationId);
  if (!automation) {
    await finish(deps, runId, run.automationId, "failed", "The automation was deleted");
    return;
  }
  if (automation.status !== "active") {
    await runs.hold({ _id: stepKey(runId, stepId), automationId: automation.id, runId, stepId, at: deps.now() });
    return;
  }
  const plan = planOf(automation.steps);
  const key = stepKey(runId, stepId);
  let record = await runs.step(key);
  if (!record) {
    const planned = plan.steps.get(stepId);
    const base = { _id: key, runId, automationId: automation.id, stepId, branch: "" as const, dueAt: null };
    if (!planned) {
      record = await runs.record({
        ...base,
        kind: "removed",
        status: "skipped",
        detail: "The step was removed",
        at: deps.now(),
      });
    } else {
      const outcome = await perform(deps, run, planned.step, key);
      record = await runs.record({ ...base, kind: planned.step.kind, ...outcome, at: deps.now() });
    }
  }
  if (record.status === "failed") {
    await finish(deps, runId, automation.id, "failed", record.detail);
    return;
  }
  const next = nextStep(plan, stepId, record.branch || undefined);
  if (!next) {
    await finish(deps, runId, automation.id, "completed", "Run completed");
    return;
  }
  await runs.setCurrent(runId, next);
  const delay = record.dueAt ? Math.max(0, record.dueAt.getTime() - deps.now().getTime()) : 0;
  await deps.automations.queue.enqueue(runId, next, delay);
}

/**
 * Records a step that failed for good (its retries are spent, or it cannot succeed) and ends the run
 * as failed. Once per step, like every record.
 */
export async function failStep(deps: Deps, runId: string, stepId: string, reason: string): Promise<void> {
  const run = await deps.stores.automationRuns.run(runId);
  if (run?.status !== "running") return;
  await deps.stores.automationRuns.record({
    _id: stepKey(runId, stepId),
    runId,
    automationId: run.automationId,
    stepId,
    kind: "failed",
    status: "failed",
    detail: reason.slice(0, 500),
    branch: "",
    dueAt: null,
    at: deps.now(),
  });
  await finish(deps, runId, run.automationId, "failed", reason);
}

async function finish(
  deps: Deps,
  runId: string,
  automationId: string,
  status: "completed" | "failed",
  detail: string,
): Promise<void> {
  const at = deps.now();
  await deps.stores.automationRuns.record({
    _id: stepKey(runId, END_STEP),
    runId,
    automationId,
    stepId: END_STEP,
    kind: "end",
    status: status === "completed" ? "done" : "failed",
    detail: detail.slice(0, 500),
    branch: "",
    dueAt: null,
    at,
  });
  await deps.stores.automationRuns.endRun(runId, status, at);
}

type Outcome = Pick<StepRecordDoc, "status" | "detail" | "branch" | "dueAt">;

/** A step's effect. Every effect is keyed by the step's key, so repeating it after a crash changes nothing. */
async function perform(
  deps: Deps,
  run: { _id: string; userId: string; projectId: string; contactId: string; automationId: string },
  step: Step,
  key: string,
): Promise<Outcome> {
  const { contacts, mailer, notifier, templates, waitScale } = deps.automations;
  const done = (detail: string): Outcome => ({ status: "done", detail, branch: "", dueAt: null });
  switch (step.kind) {
    case "wait": {
      // A time of day is the business's: its zone is read only for such a wait.
      const zone = step.at !== undefined ? await deps.zones.zoneOf(run.userId, run.projectId) : "UTC";
      const now = deps.now();
      const dueAt = new Date(now.getTime() + waitDelayMs(step, now, zone, waitScale));
      return { status: "done", detail: `Waits until ${dueAt.toISOString()}`, branch: "", dueAt };
    }
    case "condition": {
      const yes = await contacts.matches(run.userId, run.projectId, run.contactId, step.query);
      return { status: "done", detail: `Condition: ${yes ? "yes" : "no"}`, branch: yes ? "yes" : "no", dueAt: null };
    }
    case "send_email": {
      // The step's own subject and body, else its template's (a template deleted since is a lasting failure).
      const content =
        step.subject && step.html
          ? { subject: step.subject, html: step.html }
          : step.templateId
            ? await templates.content(run.userId, step.templateId).catch((error: unknown) => {
                throw new PermanentStepError(
                  `The email's template cannot be read: ${error instanceof Error ? error.message : error}`,
                );
              })
            : null;
      if (!content?.html) throw new PermanentStepError("The email has no content: give a subject and a body");
      const sent = await mailer.sendToContact({
        userId: run.userId,
        projectId: run.projectId,
        contactId: run.contactId,
        subject: step.subject || content.subject,
        html: content.html,
        preheader: step.preheader,
        source: { kind: "automation", id: run.automationId },
        key,
      });
      if (sent.status === "queued") return done("Email sent");
      // CAN-SPAM: no marketing email without the business's postal address (campaigns are refused too).
      if (sent.reason === "no_address")
        return { status: "failed", detail: NOT_SENT_NO_ADDRESS, branch: "", dueAt: null };
      return {
        status: "skipped",
        detail:
          sent.reason === "not_subscribed"
            ? "Not sent: the contact is not subscribed"
            : `Not sent: ${sent.reason ?? "skipped"}`,
        branch: "",
        dueAt: null,
      };
    }
    case "add_tag":
      await contacts.tag(run.userId, run.projectId, run.contactId, [step.tag], []);
      return done(`Tagged ${step.tag}`);
    case "remove_tag":
      await contacts.tag(run.userId, run.projectId, run.contactId, [], [step.tag]);
      return done(`Untagged ${step.tag}`);
    case "update_field":
      await contacts.setField(run.userId, run.projectId, run.contactId, step.field, step.value);
      return done(`Set ${step.field}`);
    case "notify_owner": {
      if (!notifier)
        return { status: "skipped", detail: "In-app notifications are not available yet", branch: "", dueAt: null };
      await notifier.notify({
        userId: run.userId,
        level: step.level ?? "info",
        title: step.title,
        body: step.body ?? "",
        link: `/app/automation/${run.automationId}`,
        key,
      });
      return done("Owner notified");
    }
    case "publish_social_post": {
      const { social } = deps.automations;
      if (!social) return { status: "skipped", detail: "Social publishing is not available", branch: "", dueAt: null };
      if (!step.post) throw new PermanentStepError("The step has no post: open the automation and save it again");
      const handed = await social.publish({
        userId: run.userId,
        projectId: run.projectId,
        automationId: run.automationId,
        // The run's step, in a form BullMQ takes in job ids (the engine schedules the post by it).
        postId: jobIdOf(run._id, step.id),
        post: step.post,
        channelIds: step.channelIds,
      });
      if (handed.state === "refused")
        return { status: "failed", detail: `Not published: ${handed.reason}`, branch: "", dueAt: null };
      return done(`Publishing on ${handed.channels.join(", ")}`);
    }
  }
}

/**
 * Re-queues the steps held while an automation was paused (after it is activated again). Each held
 * step is queued, then released; a crash in between queues it again later, which the step record
 * makes harmless.
 */
export async function releaseHeld(deps: Deps, automationId: string): Promise<number> {
  const held = await deps.stores.automationRuns.heldFor(automationId);
  for (const h of held) {
    await deps.automations.queue.enqueue(h.runId, h.stepId, 0);
    await deps.stores.automationRuns.release(h._id);
  }
  return held.length;
}

/**
 * The queue's processor: runs a step; a step that cannot succeed, or whose last retry failed, is
 * recorded as failed and ends its run, instead of being thrown back to the queue.
 */
export function stepProcessor(
  deps: Deps,
): (job: { runId: string; stepId: string }, lastAttempt: boolean) => Promise<void> {
  return async ({ runId, stepId }, lastAttempt) => {
    try {
      await executeStep(deps, runId, stepId);
    } catch (error) {
      if (!(error instanceof PermanentStepError) && !lastAttempt) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      deps.logger.warn({ err: error, runId, stepId }, "automation step failed for good");
      await failStep(deps, runId, stepId, reason);
    }
  };
}
