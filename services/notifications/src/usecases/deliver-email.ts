import { hostname } from "node:os";
import { metrics } from "@crafter/kit";
import type { NotificationsDeps } from "../deps";
import type { ResolvedSender } from "../domain/sender";
import type { RenderedEmail, TemplateName } from "../domain/templates";
import type { NotificationsStores } from "../store";

/** One email caused by one event. */
export interface EventEmail {
  /** The event's ce_id: at most one successful send per event. */
  eventId: string;
  userId: string;
  to: string;
  template: TemplateName;
  email: RenderedEmail;
  /** A business's From, Reply-To and DKIM key (email sent for a business); absent: the platform's From. */
  sender?: ResolvedSender;
}

/**
 * How long an attempt without an outcome is left to its worker, in ms: far longer than an SMTP
 * hand-off, short enough to wait for inside a consumer's handler, and shorter than the time a killed
 * worker's event takes to come back (its group member's session must time out first), so a
 * redelivery after a kill finds the attempt expired and does not wait.
 */
export const EVENT_EMAIL_LEASE_MS = 20_000;

/** Names this process in the attempts it records (host and pid). */
const WORKER = `${hostname()}:${process.pid}`;

/**
 * Sends an event's email once, and records every message that may have left, as campaign emails
 * do (email-delivery.ts), in append-only facts:
 * 1. an email with a `sent` fact is done: a redelivered event is skipped ("already-sent");
 * 2. an attempt of another worker that is younger than the lease and has no outcome is waited for
 *    (polling its facts): its `sent` ends this run;
 * 3. the attempt `n` is recorded (`<eventId>:attempt:<n>`, inserted once: two workers, one wins)
 *    before the message is handed to SMTP, so an attempt without an outcome is one whose message
 *    may have left (its worker died between the hand-off and the record);
 * 4. taking over such an expired attempt sends again with the same Message-ID and records
 *    `resent` (a possible duplicate, logged as a warning);
 * 5. then `sent` or `failed:<n>` is recorded; a failure is rethrown, so the kit consumer retries it
 *    and finally puts it on the DLQ.
 * @returns "sent", or "already-sent" for a duplicate event.
 */
export async function deliverEmail(
  deps: Pick<NotificationsDeps, "mailer" | "publicOrigin" | "logger" | "now"> & {
    stores: Pick<NotificationsStores, "deliveries">;
    /** Default EVENT_EMAIL_LEASE_MS. */
    leaseMs?: number;
  },
  input: EventEmail,
): Promise<"sent" | "already-sent"> {
  const repo = deps.stores.deliveries;
  const leaseMs = deps.leaseMs ?? EVENT_EMAIL_LEASE_MS;
  const { sentBefore } = await repo.open(input);
  const done = () => {
    deps.logger.info({ eventId: input.eventId, template: input.template }, "email already sent for this event");
    return "already-sent" as const;
  };
  if (sentBefore) return done();

  for (;;) {
    const facts = await repo.factsOf(input.eventId);
    if (facts.some((fact) => fact.kind === "sent")) return done();
    const attempts = facts.filter((fact) => fact.kind === "attempt").length;
    const failed = new Set(facts.filter((fact) => fact.kind === "failed").map((fact) => fact.attempt));
    // The latest attempt has no outcome: its worker is sending now, or died after the hand-off.
    const open = attempts > 0 && !failed.has(attempts);
    const latest = facts.findLast((fact) => fact.kind === "attempt");
    if (open && latest && deps.now().getTime() - new Date(latest.at).getTime() < leaseMs) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(500, leaseMs)));
      continue;
    }
    const number = attempts + 1;
    if (!(await repo.addFact({ eventId: input.eventId, kind: "attempt", attempt: number, detail: WORKER }, deps.now())))
      continue; // another worker took this attempt: wait for its outcome
    if (open) {
      const recorded = await repo.addFact(
        {
          eventId: input.eventId,
          kind: "resent",
          attempt: number,
          detail: `attempt ${attempts} expired without an outcome`,
        },
        deps.now(),
      );
      if (recorded) metrics.emailPossibleDuplicates.add(1, { kind: "account" });
      deps.logger.warn(
        { eventId: input.eventId, template: input.template, attempt: number },
        "email resent after an expired attempt: the recipient may get it twice",
      );
    }
    let messageId: string;
    try {
      ({ messageId } = await deps.mailer.send({
        ...input.email,
        to: input.to,
        ...(input.sender
          ? {
              from: input.sender.from,
              ...(input.sender.replyTo ? { replyTo: input.sender.replyTo } : {}),
              ...(input.sender.dkim ? { dkim: input.sender.dkim } : {}),
            }
          : {}),
        messageId: `<${input.eventId}.${input.template}@${new URL(deps.publicOrigin).hostname}>`,
      }));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await repo.addFact({ eventId: input.eventId, kind: "failed", attempt: number, detail: reason }, deps.now());
      await repo.markFailed(input.eventId, reason, number).catch((recordError) => {
        deps.logger.error({ err: recordError, eventId: input.eventId }, "could not record a failed delivery");
      });
      throw error;
    }
    await repo.addFact({ eventId: input.eventId, kind: "sent", attempt: number, detail: messageId }, deps.now());
    await repo.markSent(input.eventId, messageId, number, deps.now());
    deps.logger.info({ eventId: input.eventId, template: input.template, userId: input.userId }, "email sent");
    return "sent";
  }
}
