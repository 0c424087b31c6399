import type { Redis } from "ioredis";

// A version per user of what the gateway assembles for them (userInfo, credits, settings, …). A
// writer bumps it (INCR, atomic) before it answers; a reader that caches the assembled view keys
// its copy by the version it read *before* fetching, so a copy fetched while a write ran is never
// served after that write answered. Redis may lose the key: a missing version means "do not cache".

const key = (userId: string) => `view:${userId}`;

/** The Redis key of the user's view version, for a caller that reads it in an MGET beside other keys. */
export const viewVersionKey = key;
/** How long a version lives without writes, in seconds (the caches that use it live shorter). */
const VERSION_TTL_S = 86_400;

/** Marks the user's cached views stale. Awaited by writers before they answer. */
export async function bumpViewVersion(redis: Redis, userId: string): Promise<void> {
  await redis.multi().incr(key(userId)).expire(key(userId), VERSION_TTL_S).exec();
}

/**
 * The current version of the user's views, starting one at a random value when none exists (so a
 * version lost with Redis does not restart at a number an old cached copy carries).
 */
export async function viewVersion(redis: Redis, userId: string): Promise<string> {
  const current = await redis.get(key(userId));
  if (current !== null) return current;
  await redis.set(key(userId), String(Math.floor(Math.random() * 2 ** 40)), "EX", VERSION_TTL_S, "NX");
  return (await redis.get(key(userId))) ?? "";
}
