import type { NotificationsDeps } from "../deps";
import {
  type BusinessFooter,
  type ComposedEmail,
  composeEmail,
  type EmailContact,
  signTrackingToken,
  testSendLinks,
} from "../domain/email-compose";
import type { EmailRef } from "../events/publishers";
import { backoffDelays, ProviderError } from "../mail/providers";
import { type DeliveryDoc, type FactDoc, FINAL_FACTS } from "../store/email.repository";

export type DeliveryDeps = Pick<NotificationsDeps, "stores" | "email" | "publicOrigin" | "logger" | "now">;

/** What one delivery sends: the subject, preheader and HTML with smart values, and the footer's business. */
export interface DeliveryContent {
  subject: string;
  preheader: string;
  html: string;
  business: BusinessFooter;
  /** utm_campaign of the links (the campaign's name); null adds none. */
  utmCampaign: string | null;
}

/** The outcome of one delivery run. */
export type DeliveryOutcome = "sent" | "failed" | "done-before" | "busy";

export function refOf(delivery: DeliveryDoc): EmailRef {
  return {
    userId: delivery.userId,
    projectId: delivery.projectId,
    campaignId: delivery.campaignId,
    automationId: delivery.automationId,
    contactId: delivery.contactId,
    email: delivery.email,
    deliveryId: delivery._id,
  };
}

/** The Message-ID of a delivery: the same for every attempt, so a resend is recognisably the same message. */
export function messageIdOf(deliveryId: string, publicOrigin: string): string {
  return `<${deliveryId}@${new URL(publicOrigin).hostname}>`;
}

/** Composes one recipient's email with its consent links, tracking and footer. */
export async function composeFor(
  deps: DeliveryDeps,
  delivery: DeliveryDoc,
  content: DeliveryContent,
  options: { tracking: boolean },
): Promise<ComposedEmail> {
  const contact: EmailContact = {
    contactId: delivery.contactId,
    email: delivery.email,
    firstName: delivery.firstName,
    lastName: delivery.lastName,
  };
  const origin = deps.publicOrigin.replace(/\/+$/, "");
  // A test send names no contact: its links are placeholders (contacts has no token to sign).
  const links = delivery.contactId
    ? await deps.email.links.links(delivery.userId, delivery.projectId, delivery.contactId)
    : testSendLinks(origin);
  const secret = deps.email.trackingSecret;
  return composeEmail({
    subject: content.subject,
    preheader: content.preheader,
    html: content.html,
    contact,
    business: content.business,
    links,
    tracking: options.tracking
      ? {
          openUrl: `${origin}/t/o/${signTrackingToken(secret, { deliveryId: delivery._id })}.gif`,
          clickUrl: (url) => `${origin}/t/c/${signTrackingToken(secret, { deliveryId: delivery._id, url })}`,
        }
      : null,
    utmCampaign: content.utmCampaign,
  });
}

/** The delivery's state from its facts: its final fact, and its latest attempt. */
export function stateOf(facts: FactDoc[]): { final: FactDoc | undefined; attempts: FactDoc[] } {
  return {
    final: facts.find((fact) => FINAL_FACTS.includes(fact.kind)),
    attempts: facts.filter((fact) => fact.kind === "attempt"),
  };
}

/**
 * Sends one delivery at most once per attempt, and not again once it has an outcome:
 * 1. a delivery with a final fact (sent, failed, skipped) is done;
 * 2. an attempt is claimed by inserting `<id>:attempt:<n>` (two workers: one wins); a fresh attempt
 *    of another worker leaves it alone ("busy"), a stale one (its worker died) is taken over;
 * 3. the provider is tried with backoff (throttled per provider), then `sent` (with EmailSent in its
 *    outbox) or `failed` is recorded.
 * The `emails` counter is reserved by the caller before (idempotent by delivery id) and released here
 * when the delivery fails.
 */
export async function runDelivery(
  deps: DeliveryDeps,
  delivery: DeliveryDoc,
  content: DeliveryContent,
  knownFacts?: FactDoc[],
): Promise<DeliveryOutcome> {
  const repo = deps.stores.email;
  const facts = knownFacts ?? (await repo.factsOf(delivery._id));
  const { final, attempts } = stateOf(facts);
  if (final) return "done-before";
  const now = deps.now();
  const latest = attempts.at(-1);
  if (latest && now.getTime() - new Date(latest.at).getTime() < deps.email.attemptLeaseMs) return "busy";
  const claimed = await repo.addFact(
    { deliveryId: delivery._id, campaignId: delivery.campaignId, kind: "attempt", suffix: String(attempts.length + 1) },
    now,
  );
  if (!claimed) return "busy";

  const email = await composeFor(deps, delivery, content, { tracking: true });
  const { provider, throttle } = await deps.email.providers.providerFor(delivery.userId);
  const delays = backoffDelays(deps.email.retry.attempts, deps.email.retry.baseMs);
  let lastError = "";
  for (let attempt = 0; attempt <= delays.length; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, delays[attempt - 1]));
    await throttle.take();
    try {
      const { messageId } = await provider.send({
        to: delivery.email,
        subject: email.subject,
        html: email.html,
        text: email.text,
        headers: email.headers,
        messageId: messageIdOf(delivery._id, deps.publicOrigin),
        deliveryId: delivery._id,
      });
      await repo.addFact(
        {
          deliveryId: delivery._id,
          campaignId: delivery.campaignId,
          kind: "sent",
          detail: `${provider.name} ${messageId}`,
        },
        deps.now(),
        deps.email.events.sent(refOf(delivery)),
      );
      deps.email.kick();
      return "sent";
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
      if (error instanceof ProviderError && error.permanent) break;
      deps.logger.warn({ deliveryId: delivery._id, attempt: attempt + 1, err: lastError }, "email send failed");
    }
  }
  await repo.addFact(
    { deliveryId: delivery._id, campaignId: delivery.campaignId, kind: "failed", detail: lastError },
    deps.now(),
  );
  await deps.email.usage.release(delivery.userId, delivery._id).catch((error: unknown) => {
    deps.logger.warn({ err: error, deliveryId: delivery._id }, "could not release the email reservation");
  });
  return "failed";
}
