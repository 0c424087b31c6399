import { isAppError } from "@crafter/kit";
import type { NotificationsDeps } from "../deps";
import type { BusinessFooter } from "../domain/email-compose";
import { type DeliveryDoc, FINAL_FACTS } from "../store/email.repository";
import { type DeliveryContent, runDelivery } from "./email-delivery";

export interface SendToContactInput {
  userId: string;
  projectId: string;
  contactId: string;
  subject: string;
  /** HTML with smart values (`{{contact.firstName | "there"}}`…). */
  html: string;
  preheader?: string;
  source: { kind: "automation"; id: string };
  /** Idempotency key: one delivery per key and user (e.g. `<runId>:<stepId>`). */
  key: string;
}

export interface SendToContactResult {
  deliveryId: string;
  status: "queued" | "skipped";
  reason?: "not_subscribed" | "duplicate" | "limit" | "no_address";
}

/**
 * Emails one contact (an automation's step), with the same footer, consent links, RFC 8058 headers,
 * tracking and `emails` counter as a campaign.
 * - One delivery per `key` (and user): a second call with the same key sends nothing and answers
 *   `skipped`/`duplicate` (or the first call's skip reason).
 * - Only a `subscribed` contact is sent to (`skipped`/`not_subscribed` otherwise, also for a contact
 *   that does not exist).
 * - Over the plan's monthly email limit: `skipped`/`limit` (nothing is counted).
 * - While the business profile has no postal address: `skipped`/`no_address` (CAN-SPAM: every
 *   marketing email carries one, as campaigns are refused without it), for good for this key.
 * - `queued`: the email was handed to the provider, or failed after its retries (recorded on the
 *   delivery, the reservation given back).
 * @throws when the contacts service, billing or the database cannot be reached (the caller retries
 *   with the same key).
 */
export async function sendToContact(
  deps: Pick<NotificationsDeps, "stores" | "email" | "publicOrigin" | "logger" | "now">,
  input: SendToContactInput,
): Promise<SendToContactResult> {
  const repo = deps.stores.email;
  const contact = await deps.email.contacts.contact(input.userId, input.projectId, input.contactId);
  const { delivery, created } = await repo.recordDelivery(
    {
      key: `auto:${input.userId}:${input.key}`,
      userId: input.userId,
      projectId: input.projectId,
      campaignId: "",
      automationId: input.source.id,
      contactId: input.contactId,
      email: contact?.email ?? "",
      firstName: contact?.firstName ?? "",
      lastName: contact?.lastName ?? "",
      variant: "main",
      subject: input.subject,
      preheader: input.preheader ?? "",
      html: input.html,
    },
    deps.now(),
  );
  const facts = await repo.factsOf(delivery._id);
  const skipped = facts.find((fact) => fact.kind === "skipped");
  if (skipped)
    return { deliveryId: delivery._id, status: "skipped", reason: skipped.detail as SendToContactResult["reason"] };
  if (!created && facts.some((fact) => fact.kind === "sent" || fact.kind === "failed"))
    return { deliveryId: delivery._id, status: "skipped", reason: "duplicate" };

  if (contact?.consent !== "subscribed" || !contact.email) {
    await repo.addFact(
      { deliveryId: delivery._id, campaignId: "", kind: "skipped", detail: "not_subscribed" },
      deps.now(),
    );
    return { deliveryId: delivery._id, status: "skipped", reason: "not_subscribed" };
  }
  const business = await deps.email.business.footer(input.userId, input.projectId);
  if (!business.address.trim()) {
    await repo.addFact({ deliveryId: delivery._id, campaignId: "", kind: "skipped", detail: "no_address" }, deps.now());
    return { deliveryId: delivery._id, status: "skipped", reason: "no_address" };
  }
  try {
    await deps.email.usage.reserve(input.userId, delivery._id);
  } catch (error) {
    if (isAppError(error) && error.status === 402) {
      await repo.addFact({ deliveryId: delivery._id, campaignId: "", kind: "skipped", detail: "limit" }, deps.now());
      return { deliveryId: delivery._id, status: "skipped", reason: "limit" };
    }
    throw error;
  }
  const outcome = await runDelivery(deps, delivery, automationContent(delivery, business), facts);
  if (outcome === "done-before") return { deliveryId: delivery._id, status: "skipped", reason: "duplicate" };
  // The business's own provider refused its key: the email waits for a working one (sendWaiting).
  if (outcome === "paused")
    await repo.addFact(
      {
        deliveryId: delivery._id,
        campaignId: "",
        kind: "waiting",
        detail: "the business's provider needs reconnecting",
      },
      deps.now(),
    );
  return { deliveryId: delivery._id, status: "queued" };
}

/**
 * Sends the automation emails that wait for their business's own provider (sending was paused),
 * `limit` at a time: each goes once its provider works again (the same delivery, so never twice),
 * and loses its `waiting` marker once it has an outcome. @returns how many went out now.
 */
export async function sendWaiting(
  deps: Pick<NotificationsDeps, "stores" | "email" | "publicOrigin" | "logger" | "now">,
  limit = 200,
): Promise<number> {
  const repo = deps.stores.email;
  let sent = 0;
  for (const id of new Set(await repo.waitingDeliveries(limit))) {
    const delivery = await repo.delivery(id);
    const facts = delivery ? await repo.factsOf(id) : [];
    if (!delivery || facts.some((fact) => FINAL_FACTS.includes(fact.kind))) {
      await repo.stopWaiting(id);
      continue;
    }
    const business = await deps.email.business.footer(delivery.userId, delivery.projectId);
    const outcome = await runDelivery(deps, delivery, automationContent(delivery, business), facts);
    if (outcome === "paused" || outcome === "busy") continue;
    if (outcome === "sent") sent += 1;
    await repo.stopWaiting(id);
  }
  return sent;
}

function automationContent(delivery: DeliveryDoc, business: BusinessFooter): DeliveryContent {
  return { subject: delivery.subject, preheader: delivery.preheader, html: delivery.html, business, utmCampaign: null };
}
