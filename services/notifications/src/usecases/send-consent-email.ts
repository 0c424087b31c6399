import type { NotificationsDeps } from "../deps";
import { renderConsentEmail } from "../domain/templates";
import { deliverEmail } from "./deliver-email";

/** What ContactConsentRequested (contacts.contact.v1) tells the notifications service. */
export interface ConsentRequest {
  userId: string;
  email: string;
  firstName: string;
  /** The signed `/confirm?token=…` link the contacts service made. */
  confirmUrl: string;
  formTitle: string;
  /** The contact's signed preference centre; empty when the event has none. */
  preferencesUrl: string;
}

/**
 * The double opt-in email of a lead form submission, sent once per event (deliverEmail). An event
 * without an address or link sends nothing.
 */
export async function sendConsentEmail(
  deps: NotificationsDeps,
  eventId: string,
  request: ConsentRequest,
): Promise<void> {
  if (!request.email || !request.confirmUrl) {
    deps.logger.warn({ eventId }, "ContactConsentRequested without email or link: no email");
    return;
  }
  const email = renderConsentEmail({
    firstName: request.firstName,
    formTitle: request.formTitle,
    link: request.confirmUrl,
    preferencesLink: request.preferencesUrl || undefined,
  });
  await deliverEmail(deps, {
    eventId,
    userId: request.userId,
    to: request.email,
    template: "confirm-subscription",
    email,
  });
}
