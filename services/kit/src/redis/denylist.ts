import type { Redis } from "ioredis";

/** The claims of an access token that a denial can name. */
export interface DeniableClaims {
  /** The token id (`jti`). */
  jti?: string;
  /** The session id (`sid`): the refresh-token family, or `key:<id>` for an API key's tokens. */
  sid?: string;
  /** The user id (`sub`). */
  sub?: string;
  /** Issued at, seconds since the epoch. */
  iat?: number;
}

const sidKey = (sid: string) => `deny:sid:${sid}`;
const userKey = (userId: string) => `deny:user:${userId}`;

/**
 * Denies every access token of a session (sign-out, family revocation, a revoked API key) at once.
 * Kept as long as such a token can live (`ttlSeconds`, the access-token lifetime); Redis may lose
 * it, which only lets those tokens live until their expiry, as they would without a denylist.
 */
export async function denySession(redis: Redis, sid: string, ttlSeconds: number): Promise<void> {
  await redis.set(sidKey(sid), "1", "EX", Math.max(1, ttlSeconds));
}

/** Denies every access token of the user issued at or before `at` (a password change). */
export async function denyUserTokensBefore(redis: Redis, userId: string, at: Date, ttlSeconds: number): Promise<void> {
  await redis.set(userKey(userId), String(Math.floor(at.getTime() / 1000)), "EX", Math.max(1, ttlSeconds));
}

/**
 * The two keys a denial of these claims is kept under (the session's, the user's), for a caller
 * that reads them in an MGET of its own beside other keys; `deniedBy` judges their values.
 */
export function denylistKeys(claims: DeniableClaims): [string, string] {
  return [claims.sid ? sidKey(claims.sid) : "deny:sid:", claims.sub ? userKey(claims.sub) : "deny:user:"];
}

/**
 * Whether the values of `denylistKeys(claims)`, as MGET answers them (null when absent), deny the
 * token: its session is denied, or it was issued at or before the user's last password change.
 */
export function deniedBy(claims: DeniableClaims, [session, userBefore]: (string | null | undefined)[]): boolean {
  if (!claims.sid && !claims.sub) return false;
  if (session) return true;
  return userBefore !== null && userBefore !== undefined && (claims.iat ?? 0) <= Number(userBefore);
}

/**
 * A check for the access-token verifier: true when the token's session is denied, or the user's
 * tokens issued up to a password change are. One Redis round trip (MGET).
 */
export function redisDenylist(redis: Redis): (claims: DeniableClaims) => Promise<boolean> {
  return async (claims) => {
    if (!claims.sid && !claims.sub) return false;
    return deniedBy(claims, await redis.mget(...denylistKeys(claims)));
  };
}
