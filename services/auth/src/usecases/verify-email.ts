import { appError, denySession, outboxEntry } from "@crafter/kit";
import { EmailVerifiedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import { hashToken } from "../domain/tokens";
import type { UserDoc } from "../store/user.repository";
import type { AuthDeps } from "./deps";
import { isExpiredAccount } from "./sign-up";

/**
 * Consumes a verification token, marks the email verified and publishes EmailVerified.
 * The account takes the password and name of the sign-up whose link was used, and the links of
 * every other sign-up are dropped (issue 9: pre-hijacking). When that password is not the one the
 * account had, every session made with the old one is revoked and its access tokens denied.
 * @returns the verified email.
 * @throws InvalidToken when the token is unknown, used or expired, or its account expired.
 */
export async function verifyEmail(deps: AuthDeps, token: string): Promise<string> {
  const now = deps.now();
  const used = token ? await deps.oneTimeTokens.consume(hashToken(token), "verify", now) : null;
  const user = used ? await deps.users.findById(used.userId) : null;
  if (!used || !user || isExpiredAccount(user, now)) throw appError("InvalidToken");
  if (!user.emailVerified) {
    const set: Partial<UserDoc> = { emailVerified: true, expiresAt: null };
    if (used.passwordHash) set.passwordHash = used.passwordHash;
    if (used.displayName) set.displayName = used.displayName;
    const event = outboxEntry(deps.userTopic, user.id, EmailVerifiedSchema, { userId: user.id, email: user.email });
    await deps.users.updateWithEvent(user.id, set, event);
    await deps.oneTimeTokens.dropAll(user.id, "verify");
    if (used.passwordHash && used.passwordHash !== user.passwordHash) {
      const families = await deps.refreshTokens.revokeAllOfUser(user.id, now);
      await Promise.all(families.map((sid) => denySession(deps.redis, sid, deps.config.ACCESS_TOKEN_TTL_S)));
    }
    deps.kickOutbox();
  }
  return user.email;
}
