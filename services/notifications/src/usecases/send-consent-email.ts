import type { NotificationsDeps } from "../deps";
import { renderConsentEmail } from "../domain/templates";
import { businessOf } from "./business-brand";
import { deliverEmail } from "./deliver-email";

/** What ContactConsentRequested (contacts.contact.v1) tells the notifications service. */
export interface ConsentRequest {
  userId: string;
  /** The project whose form it was: its business brands the email and is its sender. */
  projectId: string;
  email: string;
  firstName: string;
  /** The signed `/confirm?token=…` link the contacts service made. */
  confirmUrl: string;
  formTitle: string;
  /** The contact's signed preference centre; empty when the event has none. */
  preferencesUrl: string;
}

/**
 * The double opt-in email of a lead form submission, sent once per event (deliverEmail), headed and
 * signed by the business (its name and logo) and sent as the project's sender (the business's
 * verified address, or the platform's with the business's name). When the business cannot be read
 * the email still goes, unbranded. An event without an address or link sends nothing.
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
  const { brand, sender } = await businessOf(deps, request.userId, request.projectId);
  const email = renderConsentEmail({
    firstName: request.firstName,
    formTitle: request.formTitle,
    link: request.confirmUrl,
    preferencesLink: request.preferencesUrl || undefined,
    ...(brand ? { brand } : {}),
  });
  await deliverEmail(deps, {
    eventId,
    userId: request.userId,
    to: request.email,
    template: "confirm-subscription",
    email,
    ...(sender ? { sender } : {}),
  });
}
