import { appError, badRequest, denySession, outboxEntry } from "@crafter/kit";
import { PasswordChangedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import { hashToken, passwordError } from "../domain/tokens";
import type { AuthDeps } from "./deps";
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
  const used = token ? await deps.oneTimeTokens.consume(hashToken(token), "reset", deps.now()) : null;
  if (!used) throw appError("InvalidToken");
  const userId = used.userId;
  const passwordHash = await hashPassword(password);
  const event = outboxEntry(deps.userTopic, userId, PasswordChangedSchema, { userId });
  await deps.users.updateWithEvent(userId, { passwordHash, emailVerified: true, expiresAt: null }, event);
  await deps.oneTimeTokens.dropAll(userId, "verify");
  const families = await deps.refreshTokens.revokeAllOfUser(userId, deps.now());
  await Promise.all(families.map((sid) => denySession(deps.redis, sid, deps.config.ACCESS_TOKEN_TTL_S)));
  deps.kickOutbox();
}
