import { timingSafeEqual } from "node:crypto";

/** The address every caller that may not name one shares: a direct caller cannot pick a fresh IP per try. */
export const UNTRUSTED_IP = "untrusted";

/**
 * The client IP a caller names, if it may name one: only the gateway (which takes it from its own
 * trusted-proxy setting) proves itself with the shared secret. Anyone else shares UNTRUSTED_IP.
 * @param presented the caller's `x-crafter-gateway` header; @param secret GATEWAY_AUTH_SECRET.
 */
export function trustedClientIp(claimedIp: string, presented: string | null, secret: string | undefined): string {
  if (!secret || !presented) return UNTRUSTED_IP;
  const a = Buffer.from(presented);
  const b = Buffer.from(secret);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return UNTRUSTED_IP;
  return claimedIp.trim() || "unknown";
}
