import { badRequest, emailError, normalizeEmail } from "@crafter/kit";
import type { AuthDeps } from "../deps";
import { hashToken, newOpaqueToken } from "../domain/tokens";
import { countMailRequest, takeMailBudget } from "./mail-limit";
import { isExpiredAccount } from "./sign-up";

/**
 * Sends the verification link again to an unverified address: a new token repeating the newest
 * sign-up's password and name (so the resend never brings back an older sign-up's password), and
 * the account's expiry moves on. Answers alike for unknown, verified and rate-limited addresses.
 * @throws CR_ERR_BAD_REQUEST for a malformed email; RATE_LIMITED per client IP.
 */
export async function resendVerification(deps: AuthDeps, rawEmail: string, ip: string): Promise<void> {
  const problem = emailError(rawEmail);
  if (problem) throw badRequest({ email: problem });
  await countMailRequest(deps, ip);
  const now = deps.now();
  const user = await deps.stores.users.findByEmail(normalizeEmail(rawEmail));
  if (!user || user.emailVerified || isExpiredAccount(user, now)) return;
  const latest = await deps.stores.oneTimeTokens.latest(user.id, "verify", now);
  if (!(await takeMailBudget(deps, user.email))) return;

  const token = newOpaqueToken();
  const expiresAt = new Date(now.getTime() + deps.config.VERIFY_TOKEN_TTL_S * 1000);
  await deps.stores.oneTimeTokens.create(hashToken(token), user.id, "verify", expiresAt, {
    passwordHash: latest?.passwordHash ?? user.passwordHash,
    displayName: latest?.displayName ?? user.displayName,
  });
  const event = deps.events.registered({
    userId: user.id,
    email: user.email,
    displayName: user.displayName,
    role: user.role,
    verificationToken: token,
    verificationExpiresAt: expiresAt,
  });
  const accountExpiresAt = new Date(now.getTime() + deps.config.UNVERIFIED_ACCOUNT_TTL_S * 1000);
  await deps.stores.users.updateWithEvent(user.id, { expiresAt: accountExpiresAt }, event);
  deps.kick();
}
