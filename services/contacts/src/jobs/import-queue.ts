import { describeError, isOutage, type JobQueueHome, jobQueue } from "@crafter/kit";
import { type Job, UnrecoverableError, WaitingError } from "bullmq";

/** The BullMQ queue of contact imports: one job per started import (`import-<importId>`). */
export const IMPORT_QUEUE = "contact-imports";

/**
 * Attempts of an import's job through an outage before it is given up (each resumes from the last
 * checkpoint), `IMPORT_RETRY_MS` apart: the import waits out an outage of about two minutes, and
 * goes on within two seconds of its end.
 */
export const IMPORT_ATTEMPTS = 60;
export const IMPORT_RETRY_MS = 2000;

/** An error that says a server was briefly away (a peer unavailable or late, a database or Redis down), not that the import is wrong. */
function isTransient(error: unknown): boolean {
  return isOutage(error) || describeError(error).code === "UNAVAILABLE";
}

interface ImportJob {
  importId: string;
  /** Queued again at start for an import whose job was lost: it may have written rows after its last checkpoint. */
  resumed?: boolean;
}

/**
 * How a run ended: `done` (its last checkpoint says so), or `stopped` at a batch boundary because
 * the worker is closing (the job goes back to waiting, and a replica, or this one restarted, resumes it).
 */
export type ImportRunEnd = "done" | "stopped";

export interface ImportQueue {
  /** Adds an import's job; a no-op while one with its id waits or runs (in any replica). */
  enqueue(importId: string, resumed?: boolean): Promise<void>;
  /**
   * Takes jobs, `concurrency` at a time. `run` imports from the last checkpoint and returns at a
   * batch boundary once `stopping()` is true; `resumed` says an earlier run of the job may have been
   * cut short mid-batch (its process died, or it threw). `giveUp` is called after the last attempt failed.
   */
  start(
    run: (importId: string, run: { resumed: boolean; stopping: () => boolean }) => Promise<ImportRunEnd>,
    giveUp: (importId: string, error: unknown) => Promise<void>,
  ): void;
  close(): Promise<void>;
}

/**
 * Contact imports on BullMQ (keys under `<namespace>:bull:`). A process killed mid-import loses its
 * job's lock after `lockMs`; BullMQ's stalled check (every `lockMs`) moves the job back to waiting and
 * a worker of any replica resumes it from its last checkpoint (usecases/imports.ts: every row's effect
 * is keyed by import and line, so a batch run twice applies each row once). A run that fails on an
 * outage (billing's plan check unavailable, a database away) is retried after a backoff,
 * `IMPORT_ATTEMPTS` times in all; any other error ends the import at once. Each failed attempt counts in
 * `crafter_jobs_failed_total{queue="contact-imports"}`. Depth and oldest waiting job are gauges (the
 * kit's `watchJobQueue`).
 */
export function createImportQueue(options: JobQueueHome & { lockMs: number; concurrency: number }): ImportQueue {
  const jobs = jobQueue<ImportJob>(options, IMPORT_QUEUE, (job) => ({ importId: job?.data.importId }));
  let closing = false;
  return {
    async enqueue(importId, resumed = false) {
      await jobs.queue.add(
        "import",
        { importId, resumed },
        {
          jobId: `import-${importId}`,
          attempts: IMPORT_ATTEMPTS,
          backoff: { type: "fixed", delay: IMPORT_RETRY_MS },
          removeOnComplete: true,
          removeOnFail: 100,
        },
      );
    },
    start(run, giveUp) {
      jobs.work(
        async (job: Job<ImportJob>, token?: string) => {
          try {
            // Started before (stalled, failed, or put back at a graceful stop): rows may be written past the checkpoint.
            const resumed = job.data.resumed === true || job.attemptsStarted > 1 || job.stalledCounter > 0;
            if ((await run(job.data.importId, { resumed, stopping: () => closing })) === "stopped") {
              // Back to waiting, not completed nor failed: the next worker resumes it at once.
              await job.moveToWait(token);
              throw new WaitingError();
            }
          } catch (error) {
            if (error instanceof WaitingError) throw error;
            const transient = isTransient(error);
            if (!transient || job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
              await giveUp(job.data.importId, error);
              // Not retried: the same rows would fail the same way.
              if (!transient) throw new UnrecoverableError(error instanceof Error ? error.message : String(error));
            }
            throw error;
          }
        },
        {
          concurrency: options.concurrency,
          lockDuration: options.lockMs,
          stalledInterval: options.lockMs,
          // A job whose process died is resumed, not failed, however often that happens.
          maxStalledCount: 100,
        },
      );
    },
    async close() {
      closing = true;
      await jobs.close();
    },
  };
}
