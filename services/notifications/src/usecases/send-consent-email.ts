import type { NotificationsDeps } from "../deps";
import type { ResolvedSender } from "../domain/sender";
import { absoluteLogoUrl, type EmailBrand, renderConsentEmail } from "../domain/templates";
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
  const { brand, sender } = await businessOf(deps, request);
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

/** The business's brand and sender for a project's email; nulls when they cannot be read now. */
async function businessOf(
  deps: NotificationsDeps,
  request: ConsentRequest,
): Promise<{ brand: EmailBrand | null; sender: ResolvedSender | null }> {
  if (!request.projectId || !deps.email.brands) return { brand: null, sender: null };
  try {
    const { name, logoUrl } = await deps.email.brands.brandOf(request.userId, request.projectId);
    const brand = { name, logoUrl: absoluteLogoUrl(logoUrl, deps.publicOrigin) };
    const sender = name ? ((await deps.email.senders?.resolve(request.userId, request.projectId, name)) ?? null) : null;
    return { brand, sender };
  } catch (error) {
    deps.logger.warn(
      { err: (error as Error).message, projectId: request.projectId },
      "the business of a double opt-in email could not be read: sent unbranded",
    );
    return { brand: null, sender: null };
  }
}
