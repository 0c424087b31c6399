import type { NotificationsDeps } from "../deps";
import type { RenderedEmail, TemplateName } from "../domain/templates";

/** One email caused by one event. */
export interface EventEmail {
  /** The event's ce_id: at most one successful send per event. */
  eventId: string;
  userId: string;
  to: string;
  template: TemplateName;
  email: RenderedEmail;
}

/**
 * Sends an event's email once: claims its delivery, sends it over SMTP and records the outcome.
 * A redelivered event whose email was already sent is skipped. A send that fails is recorded
 * (status failed, attempts, lastError) and rethrown, so the kit consumer retries it and finally
 * puts it on the DLQ.
 * @returns "sent", or "already-sent" for a duplicate event.
 */
export async function deliverEmail(
  // Only the deliveries store: the other areas' stores are no concern of a transactional send.
  deps: Pick<NotificationsDeps, "mailer" | "publicOrigin" | "logger" | "now"> & {
    stores: Pick<NotificationsDeps["stores"], "deliveries">;
  },
  input: EventEmail,
): Promise<"sent" | "already-sent"> {
  const claim = await deps.stores.deliveries.claim(input);
  if (claim === "already-sent") {
    deps.logger.info({ eventId: input.eventId, template: input.template }, "email already sent for this event");
    return "already-sent";
  }
  let messageId: string;
  try {
    ({ messageId } = await deps.mailer.send({
      ...input.email,
      to: input.to,
      messageId: `<${input.eventId}.${input.template}@${new URL(deps.publicOrigin).hostname}>`,
    }));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await deps.stores.deliveries.markFailed(input.eventId, reason).catch((recordError) => {
      deps.logger.error({ err: recordError, eventId: input.eventId }, "could not record a failed delivery");
    });
    throw error;
  }
  await deps.stores.deliveries.markSent(input.eventId, messageId, deps.now());
  deps.logger.info({ eventId: input.eventId, template: input.template, userId: input.userId }, "email sent");
  return "sent";
}
