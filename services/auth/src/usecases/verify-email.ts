import { appError, outboxEntry } from "@crafter/kit";
import { EmailVerifiedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import { hashToken } from "../domain/tokens";
import type { AuthDeps } from "./deps";

/**
 * Consumes a verification token, marks the email verified and publishes EmailVerified.
 * @returns the verified email.
 * @throws InvalidToken when the token is unknown, used or expired.
 */
export async function verifyEmail(deps: AuthDeps, token: string): Promise<string> {
  const userId = token ? await deps.oneTimeTokens.consume(hashToken(token), "verify", deps.now()) : null;
  const user = userId ? await deps.users.findById(userId) : null;
  if (!user) throw appError("InvalidToken");
  if (!user.emailVerified) {
    const event = outboxEntry(deps.userTopic, user.id, EmailVerifiedSchema, { userId: user.id, email: user.email });
    await deps.users.updateWithEvent(user.id, { emailVerified: true }, event);
    deps.kickOutbox();
  }
  return user.email;
}
