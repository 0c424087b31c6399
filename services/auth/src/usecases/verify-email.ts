import { appError, denySession } from "@crafter/kit";
import type { AuthDeps } from "../deps";
import { hashToken } from "../domain/tokens";
import type { UserDoc } from "../store/user.repository";
import { isExpiredAccount } from "./sign-up";

/**
 * Consumes a verification token, marks the email verified and publishes EmailVerified.
 * The account takes the password and name of the sign-up whose link was used, and the links of
 * every other sign-up are dropped (pre-hijacking). When that password is not the one the account
 * had, every session made with the old one is revoked and its access tokens denied.
 *
 * Each step can be repeated, and the link's tokens are dropped last: a process killed after the
 * token's use was recorded leaves the token stored, and the same link used again finishes the
 * verification instead of being refused as used.
 * @returns the verified email.
 * @throws InvalidToken when the token is unknown, used (and its verification finished) or
 *   expired, or its account expired.
 */
export async function verifyEmail(deps: AuthDeps, token: string): Promise<string> {
  const now = deps.now();
  const tokens = deps.stores.oneTimeTokens;
  const hash = token ? hashToken(token) : "";
  const used = hash
    ? ((await tokens.consume(hash, "verify", now)) ?? (await tokens.usedUnfinished(hash, "verify", now)))
    : null;
  const user = used ? await deps.stores.users.findById(used.userId) : null;
  if (!used || !user || isExpiredAccount(user, now)) throw appError("InvalidToken");
  if (!user.emailVerified) {
    // Before the password changes, so a repeat still sees that it differs.
    if (used.passwordHash && used.passwordHash !== user.passwordHash) {
      const families = await deps.stores.refreshTokens.revokeAllOfUser(user.id, now);
      await Promise.all(families.map((sid) => denySession(deps.redis, sid, deps.config.ACCESS_TOKEN_TTL_S)));
    }
    const set: Partial<UserDoc> = { emailVerified: true, expiresAt: null };
    if (used.passwordHash) set.passwordHash = used.passwordHash;
    if (used.displayName) set.displayName = used.displayName;
    const event = deps.events.emailVerified({ userId: user.id, email: user.email });
    await deps.stores.users.updateWithEvent(user.id, set, event);
    deps.kick();
  }
  await tokens.dropAll(user.id, "verify");
  return user.email;
}
