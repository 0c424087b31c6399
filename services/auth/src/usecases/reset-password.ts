import { appError, badRequest } from "@crafter/kit";
import type { AuthDeps } from "../deps";
import { hashToken, passwordError } from "../domain/tokens";
import { hashPassword } from "./sign-up";

/**
 * Sets a new password with a reset token, revokes every session of the user, and publishes
 * PasswordChanged. Resetting also proves the email, so it becomes verified.
 * @throws CR_ERR_BAD_REQUEST for a weak password; InvalidToken for an unknown, used or expired token.
 */
export async function resetPassword(deps: AuthDeps, token: string, password: string): Promise<void> {
  const problem = passwordError(password);
  if (problem) throw badRequest({ password: problem });
  const userId = token ? await deps.stores.oneTimeTokens.consume(hashToken(token), "reset", deps.now()) : null;
  if (!userId) throw appError("InvalidToken");
  const passwordHash = await hashPassword(password);
  const event = deps.events.passwordChanged(userId);
  await deps.stores.users.updateWithEvent(userId, { passwordHash, emailVerified: true }, event);
  await deps.stores.refreshTokens.revokeAllOfUser(userId, deps.now());
  deps.kick();
}
