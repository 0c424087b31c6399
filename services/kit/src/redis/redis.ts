import { Redis } from "ioredis";
import type { Logger } from "pino";

export type { Redis } from "ioredis";

/**
 * An ioredis client whose keys all start with `<namespace>:`. Redis holds only what may be lost.
 * Connection errors are logged (at most one line per 10 s) while ioredis reconnects.
 */
export function createRedis(url: string, namespace: string, logger: Logger): Redis {
  const redis = new Redis(url, { keyPrefix: `${namespace}:`, maxRetriesPerRequest: 3 });
  let lastLogged = 0;
  redis.on("error", (error) => {
    if (Date.now() - lastLogged < 10_000) return;
    lastLogged = Date.now();
    logger.error({ err: error }, "redis connection error");
  });
  return redis;
}

export interface RateLimitResult {
  allowed: boolean;
  /** Hits counted in the current window, including this one. */
  count: number;
  /** Seconds until the window resets. */
  retryAfterSeconds: number;
}

const rateLimitKey = (key: string) => `ratelimit:${key}`;

/**
 * Fixed-window rate limit: counts a hit on `key` and allows at most `limit` hits per `windowSeconds`.
 */
export async function hitRateLimit(
  redis: Redis,
  key: string,
  limit: number,
  windowSeconds: number,
): Promise<RateLimitResult> {
  const [[, count], [, ttl]] = (await redis.multi().incr(rateLimitKey(key)).ttl(rateLimitKey(key)).exec()) as [
    [null, number],
    [null, number],
  ];
  if (ttl < 0) await redis.expire(rateLimitKey(key), windowSeconds);
  return { allowed: count <= limit, count, retryAfterSeconds: ttl < 0 ? windowSeconds : ttl };
}

/** Hits counted on `key` in its current window, without counting one (0 when none). */
export async function rateLimitCount(redis: Redis, key: string): Promise<number> {
  return Number((await redis.get(rateLimitKey(key))) ?? 0);
}

/** Clears a rate-limit counter (e.g. after a successful sign-in). */
export async function resetRateLimit(redis: Redis, key: string): Promise<void> {
  await redis.del(rateLimitKey(key));
}
