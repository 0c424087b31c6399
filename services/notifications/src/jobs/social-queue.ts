import { type JobQueueHome, jobQueue } from "@crafter/kit";
import type { Job } from "bullmq";

/** The BullMQ queue of social posts to move on: one job per post and time (`social-<post>-<ms>`). */
export const SOCIAL_QUEUE = "social-publish";

interface SocialJob {
  postId: string;
}

/**
 * Social posts on BullMQ: `schedule(postId, at)` adds a job that runs the post at `at` (a delayed
 * job, kept in Redis across restarts; the same post and time again is one job). Workers of every
 * replica take jobs, `concurrency` at a time; a job whose run asks to come back later (a lease, a
 * retry's wait) schedules itself again. A replica killed mid-job loses the job's lock after
 * `lockMs` and another takes it over; the attempt records make that safe (one process claims each
 * attempt, and an attempt cut short is looked for at the provider before another is made).
 */
export function createSocialQueue(options: JobQueueHome & { concurrency: number; lockMs: number }): {
  schedule(postId: string, at: Date): Promise<void>;
  start(run: (postId: string) => Promise<Date | null>): void;
  close(): Promise<void>;
} {
  const jobs = jobQueue<SocialJob>(options, SOCIAL_QUEUE, (job) => ({ postId: job?.data.postId }));
  const schedule = async (postId: string, at: Date) => {
    await jobs.queue.add(
      "post",
      { postId },
      {
        jobId: `social-${postId}-${at.getTime()}`,
        delay: Math.max(0, at.getTime() - Date.now()),
        removeOnComplete: true,
        removeOnFail: true,
      },
    );
  };
  return {
    schedule,
    start(run) {
      jobs.work(
        async (job: Job<SocialJob>) => {
          const next = await run(job.data.postId);
          if (next) await schedule(job.data.postId, next);
        },
        {
          concurrency: options.concurrency,
          lockDuration: options.lockMs,
          stalledInterval: options.lockMs,
          maxStalledCount: 100,
        },
      );
    },
    close: () => jobs.close(),
  };
}
