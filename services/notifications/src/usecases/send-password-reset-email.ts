import type { NotificationsDeps } from "../deps";
import { renderPasswordResetEmail, tokenLink } from "../domain/templates";
import { deliverEmail } from "./deliver-email";

/** What PasswordResetRequested tells the notifications service. */
export interface ResetRequest {
  userId: string;
  email: string;
  resetToken: string;
  expiresAt: Date | null;
}

/**
 * Emails the link `${PUBLIC_ORIGIN}/reset-password?token=…` to a user who asked to reset their
 * password. Once per event (see deliverEmail).
 * @throws when the event carries no token (it goes to the DLQ: auth sent a broken event).
 */
export async function sendPasswordResetEmail(
  deps: NotificationsDeps,
  eventId: string,
  request: ResetRequest,
): Promise<void> {
  if (!request.resetToken) throw new Error("PasswordResetRequested without reset_token");
  const email = renderPasswordResetEmail({
    link: tokenLink(deps.publicOrigin, "/reset-password", request.resetToken),
    expiresAt: request.expiresAt,
    now: deps.now(),
  });
  await deliverEmail(deps, { eventId, userId: request.userId, to: request.email, template: "reset-password", email });
}
