import { observeGauge } from "./metrics";

/** A job queue's backlog, as its library reports it. */
export interface JobQueueSample {
  /** Jobs ready to run and not yet taken. */
  waiting: number;
  /** Jobs running now. */
  active: number;
  /** Jobs scheduled for later (waits, retries after a backoff). */
  delayed: number;
  /** When the oldest waiting job was added (ms since the epoch); null when none waits. */
  oldestWaitingAt: number | null;
}

const samples = new Map<string, JobQueueSample & { at: number }>();
let registered = false;

function register(): void {
  if (registered) return;
  registered = true;
  observeGauge("crafter.jobs.depth", "Jobs in a queue, by queue and state (waiting, active, delayed).", function* () {
    for (const [queue, sample] of samples) {
      yield [sample.waiting, { queue, state: "waiting" }];
      yield [sample.active, { queue, state: "active" }];
      yield [sample.delayed, { queue, state: "delayed" }];
    }
  });
  observeGauge("crafter.jobs.oldest_age", "Age in seconds of the oldest job waiting to run, by queue.", function* () {
    for (const [queue, sample] of samples)
      yield [sample.oldestWaitingAt === null ? 0 : Math.max(0, (sample.at - sample.oldestWaitingAt) / 1000), { queue }];
  });
}

/**
 * Exports a job queue's depth (`crafter_jobs_depth`) and oldest waiting job's age in seconds
 * (`crafter_jobs_oldest_age`), sampled every `everyMs` by `read` (the gauges themselves do no I/O).
 * Failures are counted where they happen (`metrics.jobsFailed`). A failing read keeps the last sample.
 * @returns stop.
 */
export function watchJobQueue(queue: string, read: () => Promise<JobQueueSample>, everyMs = 15_000): () => void {
  register();
  let stopped = false;
  const sample = async () => {
    try {
      const value = await read();
      if (!stopped) samples.set(queue, { ...value, at: Date.now() });
    } catch {
      // Redis away: the next sample tries again; the stale value stays visible until then.
    }
  };
  void sample();
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
    samples.delete(queue);
  };
}
