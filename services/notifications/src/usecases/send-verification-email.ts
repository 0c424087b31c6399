import type { NotificationsDeps } from "../deps";
import { renderVerificationEmail, tokenLink } from "../domain/templates";
import { deliverEmail } from "./deliver-email";

/** What UserRegistered tells the notifications service. */
export interface RegisteredUser {
  userId: string;
  email: string;
  displayName: string;
  verificationToken: string;
  verificationExpiresAt: Date | null;
}

/**
 * Emails a new user the link `${PUBLIC_ORIGIN}/verify?token=…` that confirms their address.
 * Once per event (see deliverEmail). An event without a token (nothing to verify) sends nothing.
 */
export async function sendVerificationEmail(
  deps: NotificationsDeps,
  eventId: string,
  user: RegisteredUser,
): Promise<void> {
  if (!user.verificationToken) {
    deps.logger.info({ eventId, userId: user.userId }, "UserRegistered without verification token: no email");
    return;
  }
  const email = renderVerificationEmail({
    displayName: user.displayName,
    link: tokenLink(deps.publicOrigin, "/verify", user.verificationToken),
    expiresAt: user.verificationExpiresAt,
    now: deps.now(),
  });
  await deliverEmail(deps, { eventId, userId: user.userId, to: user.email, template: "verify-email", email });
}
