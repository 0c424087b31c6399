import { appError, hitRateLimit, normalizeEmail, peekRateLimit, rateLimitedError, resetRateLimit } from "@crafter/kit";
import type { Session } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { verify } from "@node-rs/argon2";
import type { AuthDeps } from "../deps";
import { issueSession } from "./issue-session";
import { hashPassword, isExpiredAccount } from "./sign-up";

let dummyHash: Promise<string> | undefined;

const LOCKOUT_WINDOW_S = 15 * 60;

export interface SignInInput {
  email: string;
  password: string;
  /** The client IP, already resolved by trust (domain/client-ip). */
  ip: string;
  userAgent: string;
}

/**
 * Signs a user in with email and password and starts a new refresh-token family. A user with an
 * unverified email signs in too (`email_verified: false`) only to be told to verify: the gateway and
 * every service refuse such a token. An unverified account past its expiry counts as unknown.
 * Rate limited in Redis: `SIGNIN_LIMIT_PER_IP` attempts per IP per minute, and
 * `SIGNIN_LIMIT_PER_ACCOUNT` failures per (email, IP) pair per 15 minutes lock that pair out only,
 * so the owner signing in from another address is not locked out (OWASP).
 * An account made with Google has no password ("" hash): the dummy hash answers, so no password signs in to it.
 * @throws RATE_LIMITED (with Retry-After and RateLimit headers in the metadata); InvalidCredentials,
 * the same for an unknown email and a wrong password (an unknown email still pays for one argon2 check).
 */
export async function signIn(deps: AuthDeps, input: SignInInput): Promise<Session> {
  const email = normalizeEmail(input.email);
  const ipLimit = deps.config.SIGNIN_LIMIT_PER_IP;
  const perIp = await hitRateLimit(deps.redis, `signin:ip:${input.ip}`, ipLimit, 60);
  if (!perIp.allowed) throw rateLimitedError({ name: "signin-ip", limit: ipLimit, windowSeconds: 60 }, perIp);
  const pairLimit = deps.config.SIGNIN_LIMIT_PER_ACCOUNT;
  const pairKey = `signin:pair:${email}|${input.ip}`;
  const pair = await peekRateLimit(deps.redis, pairKey);
  if (pair.count >= pairLimit) {
    throw rateLimitedError({ name: "signin", limit: pairLimit, windowSeconds: LOCKOUT_WINDOW_S }, pair);
  }

  const now = deps.now();
  const found = email ? await deps.stores.users.findByEmail(email) : null;
  const user = found && !isExpiredAccount(found, now) ? found : null;
  dummyHash ??= hashPassword("not-a-real-password");
  const passwordOk = await verify(user?.passwordHash || (await dummyHash), input.password || " ").catch(() => false);
  if (!user || !passwordOk) {
    await hitRateLimit(deps.redis, pairKey, pairLimit, LOCKOUT_WINDOW_S);
    throw appError("InvalidCredentials");
  }
  await resetRateLimit(deps.redis, pairKey);
  return issueSession(deps, user, undefined, input.userAgent, input.ip);
}
