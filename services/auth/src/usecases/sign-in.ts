import { appError, hitRateLimit, normalizeEmail, rateLimitCount, resetRateLimit } from "@crafter/kit";
import type { Session } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { verify } from "@node-rs/argon2";
import type { AuthDeps } from "../deps";
import { issueSession } from "./issue-session";
import { hashPassword } from "./sign-up";

let dummyHash: Promise<string> | undefined;

/**
 * Signs a user in with email and password and starts a new refresh-token family. A user with an
 * unverified email signs in too (`email_verified: false`); the web guard keeps them out of /app.
 * Rate limited in Redis: `SIGNIN_LIMIT_PER_IP` attempts per IP per minute and
 * `SIGNIN_LIMIT_PER_ACCOUNT` failures per email per 15 minutes.
 * @throws RATE_LIMITED; InvalidCredentials, the same for an unknown email and a wrong password
 * (an unknown email still pays for one argon2 verification).
 */
export async function signIn(deps: AuthDeps, input: { email: string; password: string; ip: string }): Promise<Session> {
  const email = normalizeEmail(input.email);
  const perIp = await hitRateLimit(
    deps.redis,
    `signin:ip:${input.ip || "unknown"}`,
    deps.config.SIGNIN_LIMIT_PER_IP,
    60,
  );
  const accountKey = `signin:account:${email}`;
  const failures = await rateLimitCount(deps.redis, accountKey);
  if (!perIp.allowed || failures >= deps.config.SIGNIN_LIMIT_PER_ACCOUNT) throw appError("RATE_LIMITED");

  const user = email ? await deps.stores.users.findByEmail(email) : null;
  dummyHash ??= hashPassword("not-a-real-password");
  const passwordOk = await verify(user?.passwordHash ?? (await dummyHash), input.password || " ").catch(() => false);
  if (!user || !passwordOk) {
    await hitRateLimit(deps.redis, accountKey, deps.config.SIGNIN_LIMIT_PER_ACCOUNT, 15 * 60);
    throw appError("InvalidCredentials");
  }
  await resetRateLimit(deps.redis, accountKey);
  return issueSession(deps, user);
}
