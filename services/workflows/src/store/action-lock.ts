import { randomUUID } from "node:crypto";
import type { Redis } from "@crafter/kit";

/** Deletes the key only if it still holds our token (another holder may own it after expiry). */
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;
/** Extends the key's expiry only if it still holds our token. */
const RENEW = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`;

export interface HeldLock {
  release(): Promise<void>;
}

export interface ActionLocks {
  /** Takes the craft's action lock, or returns null when another action holds it. */
  acquire(craftId: string): Promise<HeldLock | null>;
}

/**
 * One running action per craft (spec: TooManyRunningActions): `SET key token NX PX ttl`, renewed
 * while the holder works and released when it is done; if the holder dies, the key expires
 * within `ttlMs`.
 */
export function redisActionLocks(redis: Redis, ttlMs = 30_000): ActionLocks {
  return {
    async acquire(craftId) {
      const key = `workflows:action:${craftId}`;
      const token = randomUUID();
      const taken = await redis.set(key, token, "PX", ttlMs, "NX");
      if (taken !== "OK") return null;
      const heartbeat = setInterval(() => {
        redis.eval(RENEW, 1, key, token, String(ttlMs)).catch(() => undefined);
      }, ttlMs / 3);
      heartbeat.unref();
      return {
        async release() {
          clearInterval(heartbeat);
          await redis.eval(RELEASE, 1, key, token);
        },
      };
    },
  };
}
