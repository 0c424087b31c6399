import { type Job, Queue, Worker, type WorkerOptions } from "bullmq";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import { queueSample, watchJobQueue } from "../telemetry/job-queues";
import { metrics } from "../telemetry/metrics";

/** Where a service's BullMQ queues live: its Redis, keys under `<namespace>:bull:`. */
export interface JobQueueHome {
  redisUrl: string;
  namespace: string;
  logger: Logger;
}

export interface JobQueue<T> {
  /** The producer side: add jobs, schedulers. */
  queue: Queue<T>;
  /**
   * Starts this process's worker on the queue (once). Each failed attempt is counted in
   * `crafter_jobs_failed_total{queue}` and logged with `describe(job)`; depth and oldest waiting
   * job become gauges (`watchJobQueue`).
   */
  work(
    processor: (job: Job<T>, token?: string) => Promise<unknown>,
    settings?: Omit<WorkerOptions, "connection" | "prefix">,
  ): Worker<T>;
  /** Closes the worker (waiting for its active jobs), the queue and their connections. */
  close(): Promise<void>;
}

// BullMQ needs connections of its own, which never give up on a command (maxRetriesPerRequest: null).
const connect = (url: string) => new Redis(url, { maxRetriesPerRequest: null });

/**
 * A BullMQ queue with the services' conventions: its own Redis connections, the namespace's key
 * prefix, failures counted and logged, depth and age as metrics. `describe` adds a job's fields to
 * the failure's log line (default: its id).
 */
export function jobQueue<T>(
  home: JobQueueHome,
  name: string,
  describe: (job: Job<T> | undefined) => Record<string, unknown> = (job) => ({ job: job?.id }),
): JobQueue<T> {
  const prefix = `${home.namespace}:bull`;
  const producer = connect(home.redisUrl);
  const queue = new Queue<T>(name, { connection: producer, prefix });
  let worker: Worker<T> | undefined;
  let workerConnection: Redis | undefined;
  let unwatch = () => {};
  return {
    queue,
    work(processor, settings) {
      if (worker) throw new Error(`${name}: a worker is already running`);
      workerConnection = connect(home.redisUrl);
      worker = new Worker<T>(name, processor, { ...settings, connection: workerConnection, prefix });
      worker.on("failed", (job, error) => {
        metrics.jobsFailed.add(1, { queue: name });
        home.logger.warn({ err: error, queue: name, ...describe(job) }, "job failed");
      });
      worker.on("error", (error) => home.logger.error({ err: error, queue: name }, "job queue error"));
      unwatch = watchJobQueue(name, queueSample(queue));
      return worker;
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

/**
 * A periodic task on a BullMQ job scheduler (`everyMs`, kept in Redis, `schedulerId` default the
 * queue's name): however many replicas run, each occurrence runs once, in one of them, and one
 * missed while every replica was down runs when one is back; a failing run is counted and logged,
 * and the next occurrence runs as planned.
 *
 * Each process also checks every `healEveryMs` (default 30 s) that the scheduler is still in Redis
 * and puts it back when it is not: a Redis that lost its data (restarted without persistence, a
 * failover to an empty replica) would otherwise never run the task again until a service restarts.
 */
export function periodicJob(
  home: JobQueueHome & {
    queue: string;
    everyMs: number;
    run: () => Promise<void>;
    schedulerId?: string;
    healEveryMs?: number;
  },
): { start(): Promise<void>; close(): Promise<void> } {
  const jobs = jobQueue(home, home.queue);
  const schedulerId = home.schedulerId ?? home.queue;
  const upsert = () =>
    jobs.queue.upsertJobScheduler(
      schedulerId,
      { every: home.everyMs },
      { name: "run", opts: { removeOnComplete: true, removeOnFail: 100 } },
    );
  let healer: NodeJS.Timeout | undefined;
  const heal = async () => {
    try {
      if (await jobs.queue.getJobScheduler(schedulerId)) return;
      await upsert();
      home.logger.warn({ queue: home.queue, scheduler: schedulerId }, "job scheduler was missing from Redis: put back");
    } catch (error) {
      home.logger.warn({ err: error, queue: home.queue }, "job scheduler check failed");
    }
  };
  return {
    async start() {
      await upsert();
      jobs.work(async () => home.run(), { concurrency: 1 });
      healer = setInterval(() => void heal(), home.healEveryMs ?? 30_000);
      healer.unref();
    },
    async close() {
      clearInterval(healer);
      await jobs.close();
    },
  };
}
