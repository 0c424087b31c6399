import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "@jest/globals";
import pino from "pino";
import { createRedis, pace, type Redis } from "../src";

// The Redis-wide send pace on the real Redis. Each "replica" is its own client with its own
// concurrent callers, as each notifications process has: pace() keeps no state in the process, so
// what two clients share here is exactly what two processes share.
const url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const namespace = `${process.env.CRAFTER_NAMESPACE ?? "crafter_test"}_pace_${randomUUID().slice(0, 8)}`;
const logger = pino({ level: "silent" });
const clients: Redis[] = [];
const client = () => {
  const redis = createRedis(url, namespace, logger);
  clients.push(redis);
  return redis;
};

afterAll(() => {
  for (const redis of clients) redis.disconnect();
});

/** `callers` loops per replica, each taking slots until `deadline`; @returns every slot's time (ms). */
async function run(replicas: Array<{ redis: Redis; key: string }>, perSecond: number, durationMs: number) {
  const times: number[] = [];
  const deadline = performance.now() + durationMs;
  await Promise.all(
    replicas.flatMap(({ redis, key }) =>
      Array.from({ length: 8 }, async () => {
        while (performance.now() < deadline) {
          await pace(redis, [{ key, perSecond, burst: 1 }]);
          times.push(performance.now());
        }
      }),
    ),
  );
  return times.filter((t) => t <= deadline);
}

describe("pace", () => {
  it("holds two replicas together to the configured rate, where separate buckets would double it", async () => {
    const perSecond = 40;
    const key = `pace:email:smtp:${randomUUID()}`;
    const shared = await run(
      [
        { redis: client(), key },
        { redis: client(), key },
      ],
      perSecond,
      2000,
    );
    // 2 s at 40/s: 80 slots, +1 for the first one at once, and a little for timer slack.
    expect(shared.length).toBeGreaterThanOrEqual(70);
    expect(shared.length).toBeLessThanOrEqual(82);

    // The control: a bucket per process (as a throttle in each process was) lets twice as many through.
    const separate = await run(
      [
        { redis: client(), key: `pace:a:${randomUUID()}` },
        { redis: client(), key: `pace:b:${randomUUID()}` },
      ],
      perSecond,
      2000,
    );
    expect(separate.length).toBeGreaterThan(140);
  });

  it("paces by every bucket at once: the slower of the provider's and the account's rates wins", async () => {
    const redis = client();
    const provider = `pace:provider:${randomUUID()}`;
    const started = performance.now();
    for (let i = 0; i < 11; i++)
      await pace(redis, [
        { key: provider, perSecond: 1000, burst: 1 },
        { key: `${provider}:account:a`, perSecond: 20, burst: 1 },
      ]);
    // 11 slots at 20/s: the first at once, the other 10 each 50 ms apart.
    expect(performance.now() - started).toBeGreaterThanOrEqual(480);
    // Another account on the same provider is not held back by the first one's pace.
    const other = performance.now();
    await pace(redis, [
      { key: provider, perSecond: 1000, burst: 1 },
      { key: `${provider}:account:b`, perSecond: 20, burst: 1 },
    ]);
    expect(performance.now() - other).toBeLessThan(200);
  });

  it("lets a burst through at once after a quiet spell, then spaces the rest", async () => {
    const redis = client();
    const key = `pace:burst:${randomUUID()}`;
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) waits.push(await pace(redis, [{ key, perSecond: 10, burst: 5 }]));
    expect(waits.slice(0, 5).every((w) => w === 0)).toBe(true);
    expect(waits.slice(5).every((w) => w > 0)).toBe(true);
  });
});
