import { metrics, watchJobQueue } from "@crafter/kit";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import { jobIdOf } from "../domain/automation-engine";
import type { StepQueue } from "../domain/automation-ports";
import { sampleOf } from "./dispatch-queue";

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
export function createAutomationQueue(options: {
  redisUrl: string;
  namespace: string;
  logger: Logger;
  concurrency?: number;
}): StepQueue & { start(processor: StepProcessor): void; close(): Promise<void> } {
  // BullMQ needs its own connections, which never give up on a command (maxRetriesPerRequest: null).
  const connection = () => new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const prefix = `${options.namespace}:bull`;
  const producer = connection();
  const queue = new Queue<StepJob>(AUTOMATION_QUEUE, { connection: producer, prefix });
  let worker: Worker<StepJob> | undefined;
  let workerConnection: Redis | undefined;
  let unwatch = () => {};
  return {
    async enqueue(runId, stepId, delayMs) {
      await queue.add(
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
      workerConnection = connection();
      worker = new Worker<StepJob>(
        AUTOMATION_QUEUE,
        async (job) => processor(job.data, job.attemptsMade + 1 >= (job.opts.attempts ?? 1)),
        { connection: workerConnection, prefix, concurrency: options.concurrency ?? 8 },
      );
      worker.on("failed", (job, error) => {
        metrics.jobsFailed.add(1, { queue: AUTOMATION_QUEUE });
        options.logger.warn({ err: error, job: job?.id, attempts: job?.attemptsMade }, "automation step failed");
      });
      worker.on("error", (error) => options.logger.error({ err: error }, "automation queue error"));
      unwatch = watchJobQueue(AUTOMATION_QUEUE, sampleOf(queue));
    },
    async close() {
      unwatch();
      await worker?.close();
      await queue.close();
      producer.disconnect();
      workerConnection?.disconnect();
    },
  };
}

/** The BullMQ queue of the date_field scan (one repeatable job). */
export const DATE_SCAN_QUEUE = "automation-date-scan";

/**
 * The date_field trigger's scan as a BullMQ job scheduler (`every` ms, in Redis): the schedule
 * survives restarts, one worker runs each occurrence, and a scan missed while the service was
 * down runs when it is back. `start` upserts the schedule and works the queue.
 */
export function createDateScan(options: { redisUrl: string; namespace: string; logger: Logger; everyMs: number }): {
  start(scan: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
} {
  const connection = () => new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  const prefix = `${options.namespace}:bull`;
  const producer = connection();
  const queue = new Queue(DATE_SCAN_QUEUE, { connection: producer, prefix });
  let worker: Worker | undefined;
  let workerConnection: Redis | undefined;
  return {
    async start(scan) {
      await queue.upsertJobScheduler(
        "date-field-scan",
        { every: options.everyMs },
        { name: "scan", opts: { removeOnComplete: true, removeOnFail: 100 } },
      );
      workerConnection = connection();
      worker = new Worker(DATE_SCAN_QUEUE, async () => scan(), {
        connection: workerConnection,
        prefix,
        concurrency: 1,
      });
      worker.on("failed", (job, error) => options.logger.warn({ err: error, job: job?.id }, "date_field scan failed"));
      worker.on("error", (error) => options.logger.error({ err: error }, "date_field scan queue error"));
    },
    async close() {
      await worker?.close();
      await queue.close();
      producer.disconnect();
      workerConnection?.disconnect();
    },
  };
}
