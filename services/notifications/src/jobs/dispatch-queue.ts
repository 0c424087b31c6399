import { type JobQueueHome, jobQueue } from "@crafter/kit";
import type { Job } from "bullmq";

/** The BullMQ queue of campaign rounds: one job per part of a sending campaign at a time (`campaign-<id>-<part>`). */
export const CAMPAIGN_QUEUE = "campaign-dispatch";

/** Scans a replica that sends one part of a campaign leaves another part of it to other replicas. */
const DEFER_PARTS = 3;

interface CampaignJob {
  campaignId: string;
  part: number;
  parts: number;
}

/**
 * Campaign rounds on BullMQ: `enqueue` adds one round per part of each campaign (`parts` of them,
 * so the replicas share a large campaign; a part that already has a round waiting or running is
 * left alone, whichever replica holds it); the workers of every replica take rounds, `concurrency`
 * at a time each, a replica already sending one part of a campaign leaving its other parts to
 * other replicas for DEFER_PARTS scans. A replica killed mid-round loses its job's lock after
 * `lockMs`, and another replica takes the round over (its deliveries are claimed per attempt, so a
 * round run twice sends nobody twice). `stopping()` turns true when `close` begins.
 */
export function createCampaignQueue(options: JobQueueHome & { concurrency: number; lockMs: number; parts: number }): {
  enqueue(campaignIds: readonly string[]): Promise<void>;
  start(
    round: (campaignId: string, stopping: () => boolean, part: { index: number; of: number }) => Promise<void>,
  ): void;
  close(): Promise<void>;
} {
  const jobs = jobQueue<CampaignJob>(options, CAMPAIGN_QUEUE, (job) => ({ campaignId: job?.data.campaignId }));
  let closing = false;
  // Parts of each campaign this replica is sending now, and how often it left each waiting part.
  const running = new Map<string, number>();
  const deferred = new Map<string, number>();
  return {
    async enqueue(campaignIds) {
      if (campaignIds.length === 0) return;
      const parts = Math.max(1, options.parts);
      await jobs.queue.addBulk(
        campaignIds.flatMap((campaignId) =>
          Array.from({ length: parts }, (_, part) => ({
            name: "round",
            data: { campaignId, part, parts },
            // A failed round is dropped: the next scan adds the campaign again while it is sending.
            opts: { jobId: `campaign-${campaignId}-${part}`, removeOnComplete: true, removeOnFail: true },
          })),
        ),
      );
    },
    start(round) {
      jobs.work(
        async (job: Job<CampaignJob>) => {
          const { campaignId, part = 0, parts = 1 } = job.data;
          // A replica already sending another part of this campaign leaves this one to another
          // replica a few times (the next scan adds it again), so two replicas share a campaign
          // instead of one taking every part; alone, it takes the part after those few scans.
          const key = `${campaignId}-${part}`;
          const passed = deferred.get(key) ?? 0;
          if ((running.get(campaignId) ?? 0) > 0 && passed < DEFER_PARTS) {
            deferred.set(key, passed + 1);
            return;
          }
          deferred.delete(key);
          running.set(campaignId, (running.get(campaignId) ?? 0) + 1);
          try {
            await round(campaignId, () => closing, { index: part, of: parts });
          } finally {
            const left = (running.get(campaignId) ?? 1) - 1;
            if (left > 0) running.set(campaignId, left);
            else running.delete(campaignId);
          }
        },
        { concurrency: options.concurrency, lockDuration: options.lockMs, stalledInterval: options.lockMs },
      );
    },
    async close() {
      closing = true;
      await jobs.close();
    },
  };
}
