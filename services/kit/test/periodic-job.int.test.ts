import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "@jest/globals";
import { Redis } from "ioredis";
import pino from "pino";
import { periodicJob } from "../src";

// A periodic task on the real Redis, in a namespace of its own, whose Redis then loses every key of
// that namespace (as a Redis restarted without persistence, or a failover to an empty replica).
const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const namespace = `${process.env.CRAFTER_NAMESPACE ?? "crafter_test"}_periodic_${randomUUID().slice(0, 8)}`;
const admin = new Redis(redisUrl);
const stops: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const stop of stops) await stop();
  await dropNamespace();
  admin.disconnect();
});

async function dropNamespace(): Promise<number> {
  let dropped = 0;
  let cursor = "0";
  do {
    const [next, keys] = await admin.scan(cursor, "MATCH", `${namespace}:*`, "COUNT", 500);
    cursor = next;
    if (keys.length > 0) dropped += await admin.del(...keys);
  } while (cursor !== "0");
  return dropped;
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await sleep(50);
  }
  return check();
}

describe("periodicJob", () => {
  it("runs again after Redis lost its scheduler", async () => {
    let runs = 0;
    const job = periodicJob({
      redisUrl,
      namespace,
      logger: pino({ level: "silent" }),
      queue: "heal-test",
      everyMs: 200,
      healEveryMs: 300,
      run: async () => {
        runs += 1;
      },
    });
    stops.push(() => job.close());
    await job.start();
    expect(await until(() => runs >= 2, 10_000)).toBe(true);

    // The scheduler and its next job are gone, as after a restart of a Redis without persistence.
    expect(await dropNamespace()).toBeGreaterThan(0);
    const afterLoss = runs;
    await sleep(100);
    // At most the occurrence that was already running when the keys went.
    expect(runs - afterLoss).toBeLessThanOrEqual(1);

    expect(await until(() => runs >= afterLoss + 3, 10_000)).toBe(true);
  });
});
