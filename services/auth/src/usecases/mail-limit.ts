import { hitRateLimit, rateLimitedError } from "@crafter/kit";
import type { AuthDeps } from "../deps";

const HOUR_S = 3600;

/**
 * Counts a mail-sending request (sign-up, resend, forgot-password) against the client IP.
 * Over the limit the request is refused with 429: the IP's count says nothing about any account.
 * @throws RATE_LIMITED with Retry-After and RateLimit headers in its metadata.
 */
export async function countMailRequest(deps: AuthDeps, ip: string): Promise<void> {
  const limit = deps.config.MAIL_LIMIT_PER_IP;
  const result = await hitRateLimit(deps.redis, `mail:ip:${ip}`, limit, HOUR_S);
  if (!result.allowed) throw rateLimitedError({ name: "mail", limit, windowSeconds: HOUR_S }, result);
}

/**
 * Takes one mail from the address's hourly budget (`MAIL_LIMIT_PER_ADDRESS`, shared by every kind).
 * @returns false when it is spent: the caller sends nothing and answers as if it had (no enumeration).
 */
export async function takeMailBudget(deps: AuthDeps, email: string): Promise<boolean> {
  const result = await hitRateLimit(deps.redis, `mail:address:${email}`, deps.config.MAIL_LIMIT_PER_ADDRESS, HOUR_S);
  if (!result.allowed) deps.logger.info({ count: result.count }, "mail budget of an address spent: not sent");
  return result.allowed;
}
