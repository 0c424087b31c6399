import { appError, badRequest, emailError, hitRateLimit, normalizeEmail, rateLimitedError } from "@crafter/kit";
import { verify } from "@node-rs/argon2";
import type { AuthDeps } from "../deps";
import { hashToken, newOpaqueToken } from "../domain/tokens";
import type { SessionUser } from "./session-user";
import { isExpiredAccount } from "./sign-up";

/** Email change requests a user may make in 15 minutes (each sends two emails and checks a password). */
const REQUEST_LIMIT = 5;

/** Whether another live account has `email` (an unverified one whose time ran out does not count). */
async function takenByAnother(deps: AuthDeps, email: string, userId: string): Promise<boolean> {
  const holder = await deps.stores.users.findByEmail(email);
  return !!holder && holder.id !== userId && !isExpiredAccount(holder, deps.now());
}

/**
 * Starts changing the caller's email: checks the current password and that no other
 * account has the new address, stores a single-use token (hashed, `VERIFY_TOKEN_TTL_S`) naming it,
 * and publishes EmailChangeRequested (notifications emails the link to the new address and a
 * notice to the current one). The email is not changed yet.
 * @returns the normalized new address.
 * @throws CR_ERR_BAD_REQUEST (currentPassword wrong, newEmail malformed or unchanged), EMAIL_TAKEN,
 *   RATE_LIMITED after REQUEST_LIMIT requests in 15 minutes, UNAUTHENTICATED when the user is gone.
 */
export async function requestEmailChange(
  deps: AuthDeps,
  caller: SessionUser,
  input: { newEmail: string; currentPassword: string },
): Promise<string> {
  const problem = emailError(input.newEmail);
  if (problem) throw badRequest({ newEmail: problem });
  const limit = await hitRateLimit(deps.redis, `email-change:${caller.userId}`, REQUEST_LIMIT, 15 * 60);
  if (!limit.allowed) throw rateLimitedError({ name: "email-change", limit: REQUEST_LIMIT, windowSeconds: 900 }, limit);
  const user = await deps.stores.users.findById(caller.userId);
  if (!user) throw appError("UNAUTHENTICATED");
  const ok = await verify(user.passwordHash, input.currentPassword || " ").catch(() => false);
  if (!ok) throw badRequest({ currentPassword: "Your current password is not correct." });
  const newEmail = normalizeEmail(input.newEmail);
  if (newEmail === user.email) throw badRequest({ newEmail: "This is already your email." });
  if (await takenByAnother(deps, newEmail, user.id)) throw appError("EMAIL_TAKEN");

  const token = newOpaqueToken();
  const expiresAt = new Date(deps.now().getTime() + deps.config.VERIFY_TOKEN_TTL_S * 1000);
  // One pending change at a time: an earlier link stops working.
  await deps.stores.oneTimeTokens.dropAll(user.id, "email-change");
  await deps.stores.oneTimeTokens.create(hashToken(token), user.id, "email-change", expiresAt, { newEmail });
  const event = deps.events.emailChangeRequested({
    userId: user.id,
    oldEmail: user.email,
    newEmail,
    token,
    expiresAt,
    displayName: user.displayName,
  });
  await deps.stores.users.updateWithEvent(user.id, {}, event);
  deps.kick();
  return newEmail;
}

/**
 * Applies an email change with its link's token: the account's email becomes the new (verified)
 * address, and EmailVerified tells the other services (account shows it).
 * @returns the new email.
 * @throws InvalidToken (unknown, used or expired), EMAIL_TAKEN (another account took it meanwhile).
 */
export async function confirmEmailChange(deps: AuthDeps, token: string): Promise<string> {
  const used = token ? await deps.stores.oneTimeTokens.consume(hashToken(token), "email-change", deps.now()) : null;
  if (!used?.newEmail) throw appError("InvalidToken");
  const email = used.newEmail;
  if (await takenByAnother(deps, email, used.userId)) throw appError("EMAIL_TAKEN");
  const event = deps.events.emailVerified({ userId: used.userId, email });
  // The unique email index decides a race with a sign-up of the same address.
  if (!(await deps.stores.users.changeEmail(used.userId, email, event))) throw appError("EMAIL_TAKEN");
  deps.kick();
  deps.logger.info({ userId: used.userId }, "email changed");
  return email;
}
