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

/** The part of a BullMQ `Queue` that `queueSample` reads (structural: the kit does not depend on BullMQ). */
export interface CountedQueue {
  getJobCounts(...types: Array<"waiting" | "prioritized" | "active" | "delayed">): Promise<Record<string, number>>;
  getJobs(
    types: Array<"wait" | "prioritized">,
    start: number,
    end: number,
    asc: boolean,
  ): Promise<Array<{ timestamp: number }>>;
}

/**
 * A BullMQ queue's sample for `watchJobQueue`: waiting (plain and prioritized), active and delayed
 * counts, and when the oldest waiting job was added (two Redis reads).
 */
export function queueSample(queue: CountedQueue): () => Promise<JobQueueSample> {
  return async () => {
    const counts = await queue.getJobCounts("waiting", "prioritized", "active", "delayed");
    const oldest = await queue.getJobs(["wait", "prioritized"], 0, 0, true);
    const times = oldest.map((job) => job.timestamp).filter((t) => Number.isFinite(t));
    return {
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      oldestWaitingAt: times.length > 0 ? Math.min(...times) : null,
    };
  };
}
