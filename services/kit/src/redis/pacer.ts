import type { Redis } from "./redis";

/** One rate shared by every process on the same Redis (and namespace). */
export interface PaceBucket {
  /** Redis key (under the client's namespace prefix), e.g. `pace:smtp`. */
  key: string;
  /** Events a second allowed through this bucket, > 0. */
  perSecond: number;
  /** Events that may go at once after a quiet spell (≥ 1; 1 spaces every event evenly). */
  burst: number;
}

// GCRA over several buckets at once, on Redis's clock: the slot granted is the earliest time every
// bucket allows, and each bucket's theoretical arrival time moves past it. A slot is reserved even
// when it lies in the future, so callers wait instead of retrying; a process that dies before
// using its slots leaves them unused, which only slows the others for that moment.
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local go = now
for i, key in ipairs(KEYS) do
  local tat = tonumber(redis.call('GET', key) or '0')
  go = math.max(go, tat - tonumber(ARGV[2 * i]))
end
for i, key in ipairs(KEYS) do
  local tat = tonumber(redis.call('GET', key) or '0')
  local nxt = math.max(tat, go) + tonumber(ARGV[2 * i - 1])
  redis.call('SET', key, string.format('%.3f', nxt), 'PX', math.ceil(nxt - now) + 1000)
end
return math.ceil(go - now)
`;

/**
 * Reserves the next slot of every bucket at once and waits for it: at most `perSecond` events a
 * second pass each bucket, counted across every replica that shares the Redis, not per process.
 * @returns the milliseconds waited.
 * @throws when Redis cannot be reached (the caller retries its work later).
 */
export async function pace(redis: Redis, buckets: readonly PaceBucket[]): Promise<number> {
  if (buckets.length === 0) return 0;
  const args: string[] = [];
  for (const bucket of buckets) {
    const interval = 1000 / bucket.perSecond;
    args.push(interval.toFixed(3), (interval * Math.max(0, bucket.burst - 1)).toFixed(3));
  }
  const waitMs = Number(await redis.eval(RESERVE, buckets.length, ...buckets.map((b) => b.key), ...args));
  if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
  return Math.max(0, waitMs);
}
