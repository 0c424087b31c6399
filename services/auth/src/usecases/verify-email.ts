import { appError } from "@crafter/kit";
import type { AuthDeps } from "../deps";
import { hashToken } from "../domain/tokens";

/**
 * Consumes a verification token, marks the email verified and publishes EmailVerified.
 * @returns the verified email.
 * @throws InvalidToken when the token is unknown, used or expired.
 */
export async function verifyEmail(deps: AuthDeps, token: string): Promise<string> {
  const userId = token ? await deps.stores.oneTimeTokens.consume(hashToken(token), "verify", deps.now()) : null;
  const user = userId ? await deps.stores.users.findById(userId) : null;
  if (!user) throw appError("InvalidToken");
  if (!user.emailVerified) {
    const event = deps.events.emailVerified({ userId: user.id, email: user.email });
    await deps.stores.users.updateWithEvent(user.id, { emailVerified: true }, event);
    deps.kick();
  }
  return user.email;
}
