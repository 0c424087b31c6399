import { badRequest, emailError, normalizeEmail } from "@crafter/kit";
import type { AuthDeps } from "../deps";
import { hashToken, newOpaqueToken } from "../domain/tokens";
import { countMailRequest, takeMailBudget } from "./mail-limit";
import { isExpiredAccount } from "./sign-up";

/**
 * Starts a password reset: for a known email, stores a reset token (hashed, single use,
 * `RESET_TOKEN_TTL_S`) and publishes PasswordResetRequested. Answers alike for unknown emails and
 * for addresses whose hourly mail budget is spent (nothing is sent then).
 * @throws CR_ERR_BAD_REQUEST for a malformed email; RATE_LIMITED per client IP.
 */
export async function forgotPassword(deps: AuthDeps, rawEmail: string, ip: string): Promise<void> {
  const problem = emailError(rawEmail);
  if (problem) throw badRequest({ email: problem });
  await countMailRequest(deps, ip);
  const user = await deps.stores.users.findByEmail(normalizeEmail(rawEmail));
  if (!user || isExpiredAccount(user, deps.now())) return;
  if (!(await takeMailBudget(deps, user.email))) return;
  const token = newOpaqueToken();
  const expiresAt = new Date(deps.now().getTime() + deps.config.RESET_TOKEN_TTL_S * 1000);
  await deps.stores.oneTimeTokens.create(hashToken(token), user.id, "reset", expiresAt);
  const event = deps.events.passwordResetRequested({
    userId: user.id,
    email: user.email,
    resetToken: token,
    expiresAt,
  });
  await deps.stores.users.updateWithEvent(user.id, {}, event);
  deps.kick();
}
