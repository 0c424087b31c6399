import { type JobQueueHome, jobQueue } from "@crafter/kit";
import type { Redis } from "ioredis";
import type { FailureStreak } from "../domain/webhooks";
import type { DeliveryJob, DeliveryQueue, FailureStreaks } from "../usecases/webhooks";

/** The BullMQ queue of webhook delivery attempts. */
export const WEBHOOK_QUEUE = "webhook-deliveries";

/**
 * Webhook delivery attempts on BullMQ (keys under `<namespace>:bull:`): each attempt is a job of
 * its own, a retry a delayed job the failed attempt adds (the schedule is the domain's), so a
 * receiver's failure is not a job failure. A job that throws (the database away) is tried again
 * 5 times with backoff from 1 s.
 */
export function createWebhookQueue(
  options: JobQueueHome & { concurrency?: number },
): DeliveryQueue & { start(processor: (job: DeliveryJob) => Promise<void>): void; close(): Promise<void> } {
  const jobs = jobQueue<DeliveryJob>(options, WEBHOOK_QUEUE, (job) => ({
    job: job?.id,
    delivery: job?.data.deliveryId,
    attempt: job?.data.attempt,
  }));
  return {
    async enqueue(job, jobId, delayMs) {
      await jobs.queue.add("attempt", job, {
        jobId,
        delay: Math.max(0, Math.round(delayMs)),
        attempts: 5,
        backoff: { type: "exponential", delay: 1000 },
        // Kept a day, so re-adding an attempt that already ran (a redelivered event) adds nothing.
        removeOnComplete: { age: 86_400 },
        removeOnFail: 1000,
      });
    },
    start(processor) {
      jobs.work(async (job) => processor(job.data), { concurrency: options.concurrency ?? 8 });
    },
    close: () => jobs.close(),
  };
}

/**
 * Each endpoint's run of failed attempts in Redis (`<namespace>:webhooks:failing:<endpointId>`, a
 * hash of count and since), gone after 3 days without a failure: losing it only starts the count over.
 */
export function redisFailureStreaks(redis: Redis, namespace: string): FailureStreaks {
  const key = (endpointId: string) => `${namespace}:webhooks:failing:${endpointId}`;
  return {
    async failed(endpointId, at): Promise<FailureStreak> {
      const result = await redis
        .multi()
        .hincrby(key(endpointId), "count", 1)
        .hsetnx(key(endpointId), "since", String(at.getTime()))
        .hget(key(endpointId), "since")
        .pexpire(key(endpointId), 3 * 86_400_000)
        .exec();
      const count = Number(result?.[0]?.[1] ?? 1);
      const since = Number(result?.[2]?.[1] ?? at.getTime());
      return { count, since: new Date(since) };
    },
    async clear(endpointId) {
      await redis.del(key(endpointId));
    },
  };
}
