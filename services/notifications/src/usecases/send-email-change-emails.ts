import type { NotificationsDeps } from "../deps";
import { renderEmailChangeEmail, renderEmailChangeNotice, tokenLink } from "../domain/templates";
import { deliverEmail } from "./deliver-email";

/** What EmailChangeRequested tells the notifications service. */
export interface EmailChangeRequest {
  userId: string;
  oldEmail: string;
  newEmail: string;
  token: string;
  expiresAt: Date | null;
  displayName: string;
}

/**
 * Emails the confirmation link `${PUBLIC_ORIGIN}/confirm-email?token=…` to the new address and a
 * notice to the current one. Each once per event (deliverEmail, keyed `<eventId>-new` and `-old`).
 * @throws when the event carries no token or address (it goes to the DLQ: auth sent a broken event).
 */
export async function sendEmailChangeEmails(
  deps: NotificationsDeps,
  eventId: string,
  request: EmailChangeRequest,
): Promise<void> {
  if (!request.token || !request.newEmail) throw new Error("EmailChangeRequested without token or new_email");
  const common = {
    displayName: request.displayName,
    newEmail: request.newEmail,
    expiresAt: request.expiresAt,
    now: deps.now(),
  };
  await deliverEmail(deps, {
    eventId: `${eventId}-new`,
    userId: request.userId,
    to: request.newEmail,
    template: "confirm-email-change",
    email: renderEmailChangeEmail({ ...common, link: tokenLink(deps.publicOrigin, "/confirm-email", request.token) }),
  });
  if (request.oldEmail) {
    await deliverEmail(deps, {
      eventId: `${eventId}-old`,
      userId: request.userId,
      to: request.oldEmail,
      template: "email-change-notice",
      email: renderEmailChangeNotice({
        ...common,
        link: `${deps.publicOrigin.replace(/\/+$/, "")}/app/settings/change-password`,
      }),
    });
  }
}
