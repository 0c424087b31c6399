import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Signed, expiring URLs of stored objects: `/media/<key>?exp=<unix seconds>&sig=<base64url HMAC-SHA256>`
 * over `key + "\n" + exp`. The gateway serves them through ReadFile; whoever holds one may read that
 * object until `exp`, nothing else.
 */

/** The URL path prefix the gateway serves signed objects under. */
export const MEDIA_PATH = "/media/";

/** Object keys are `<namespace>/<user>/<asset>/<file>`: letters, digits, `_ - . /` only. */
export const OBJECT_KEY = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_.-]+)+$/;

export function signature(secret: string, key: string, exp: number): string {
  return createHmac("sha256", secret).update(`${key}\n${exp}`).digest("base64url");
}

/** The signed URL of `key` valid until `exp` (seconds since the epoch). */
export function signedUrl(secret: string, key: string, exp: number): string {
  return `${MEDIA_PATH}${key}?exp=${exp}&sig=${signature(secret, key, exp)}`;
}

/** The expiry of URLs signed now: `now + ttl`, rounded up to the hour so URLs stay stable (and cacheable) for a while. */
export function expiryOf(now: Date, ttlSeconds: number): number {
  const at = Math.floor(now.getTime() / 1000) + ttlSeconds;
  return Math.ceil(at / 3600) * 3600;
}

/** True when `sig` signs `key` until `exp` and `exp` is not past. Constant-time comparison. */
export function verifySignedUrl(secret: string, key: string, exp: number, sig: string, now: Date): boolean {
  if (!OBJECT_KEY.test(key) || key.includes("..") || !Number.isSafeInteger(exp)) return false;
  if (exp * 1000 < now.getTime()) return false;
  const expected = Buffer.from(signature(secret, key, exp));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
