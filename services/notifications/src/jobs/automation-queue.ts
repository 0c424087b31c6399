import { type JobQueueHome, jobQueue } from "@crafter/kit";
import { jobIdOf } from "../domain/automation-engine";
import type { StepQueue } from "../domain/automation-ports";

/** The BullMQ queue of automation steps; its jobs live in Redis and survive restarts. */
export const AUTOMATION_QUEUE = "automation-steps";
/** Attempts per step before it is recorded as failed (backoff 1 s doubling: about 15 s in all). */
export const STEP_ATTEMPTS = 5;

export interface StepJob {
  runId: string;
  stepId: string;
}

/**
 * Runs a step; `lastAttempt` is true on its final try (the handler then records the failure
 * instead of throwing).
 */
export type StepProcessor = (job: StepJob, lastAttempt: boolean) => Promise<void>;

/**
 * Automation steps on BullMQ over the service's Redis (keys under `<namespace>:bull:`): immediate
 * steps and delayed ones (waits), one job per run and step (`jobIdOf`), retried with backoff.
 * `start` begins working the queue; `close` stops both sides.
 */
export function createAutomationQueue(
  options: JobQueueHome & { concurrency?: number },
): StepQueue & { start(processor: StepProcessor): void; close(): Promise<void> } {
  const jobs = jobQueue<StepJob>(options, AUTOMATION_QUEUE, (job) => ({ job: job?.id, attempts: job?.attemptsMade }));
  return {
    async enqueue(runId, stepId, delayMs) {
      await jobs.queue.add(
        "step",
        { runId, stepId },
        {
          jobId: jobIdOf(runId, stepId),
          delay: Math.max(0, Math.round(delayMs)),
          attempts: STEP_ATTEMPTS,
          backoff: { type: "exponential", delay: 1000 },
          removeOnComplete: true,
          removeOnFail: 1000,
        },
      );
    },
    start(processor) {
      jobs.work(async (job) => processor(job.data, job.attemptsMade + 1 >= (job.opts.attempts ?? 1)), {
        concurrency: options.concurrency ?? 8,
      });
    },
    close: () => jobs.close(),
  };
}

/** The BullMQ queue of the date_field scan (one repeatable job). */
export const DATE_SCAN_QUEUE = "automation-date-scan";

/** Its job scheduler's id in Redis: running deployments hold a scheduler under it, and a second id would run the scan twice. */
export const DATE_SCAN_SCHEDULER = "date-field-scan";
