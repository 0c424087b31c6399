import { appError, badRequest, denySession } from "@crafter/kit";
import type { AuthDeps } from "../deps";
import { hashToken, passwordError } from "../domain/tokens";
import { hashPassword } from "./sign-up";

/**
 * Sets a new password with a reset token, revokes every session of the user (their access tokens
 * denied at once), drops pending verification links, and publishes
 * PasswordChanged. Resetting also proves the email, so it becomes verified.
 * @throws CR_ERR_BAD_REQUEST for a weak password; InvalidToken for an unknown, used or expired token.
 */
export async function resetPassword(deps: AuthDeps, token: string, password: string): Promise<void> {
  const problem = passwordError(password);
  if (problem) throw badRequest({ password: problem });
  const used = token ? await deps.stores.oneTimeTokens.consume(hashToken(token), "reset", deps.now()) : null;
  if (!used) throw appError("InvalidToken");
  const userId = used.userId;
  const passwordHash = await hashPassword(password);
  const event = deps.events.passwordChanged(userId);
  await deps.stores.users.updateWithEvent(userId, { passwordHash, emailVerified: true, expiresAt: null }, event);
  await deps.stores.oneTimeTokens.dropAll(userId, "verify");
  const families = await deps.stores.refreshTokens.revokeAllOfUser(userId, deps.now());
  await Promise.all(families.map((sid) => denySession(deps.redis, sid, deps.config.ACCESS_TOKEN_TTL_S)));
  deps.kick();
}
