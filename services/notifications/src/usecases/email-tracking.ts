import { createPublicKey, createVerify, type KeyObject } from "node:crypto";
import { appError, metrics } from "@crafter/kit";
import type { NotificationsDeps } from "../deps";
import { verifyTrackingToken } from "../domain/email-compose";
import type { DeliveryDoc } from "../store/email.repository";
import { refOf } from "./email-delivery";

export type Deps = Pick<NotificationsDeps, "stores" | "email" | "logger" | "now">;

/** Records the first open of a delivery (EmailOpened). @returns false for a token we did not sign. */
export async function trackOpen(deps: Deps, token: string): Promise<boolean> {
  const claim = verifyTrackingToken(deps.email.trackingSecret, token);
  if (!claim || claim.url !== undefined) return false;
  const delivery = await deps.stores.email.delivery(claim.deliveryId);
  if (!delivery) return false;
  const added = await deps.stores.email.addFact(
    { deliveryId: delivery._id, campaignId: delivery.campaignId, kind: "opened" },
    deps.now(),
    deps.email.events.opened(refOf(delivery)),
  );
  if (added) deps.email.kick();
  return true;
}

/**
 * Records a click (the first per delivery publishes EmailClicked; a click also counts as an open,
 * since images are often blocked) and answers the signed target.
 * @throws NOT_FOUND for a token we did not sign (no open redirect).
 */
export async function trackClick(deps: Deps, token: string): Promise<string> {
  const claim = verifyTrackingToken(deps.email.trackingSecret, token);
  if (!claim?.url) throw appError("NOT_FOUND", "This link is not valid");
  const delivery = await deps.stores.email.delivery(claim.deliveryId);
  if (delivery) {
    const at = deps.now();
    const clicked = await deps.stores.email.addFact(
      { deliveryId: delivery._id, campaignId: delivery.campaignId, kind: "clicked", detail: claim.url },
      at,
      deps.email.events.clicked(refOf(delivery), claim.url),
    );
    const opened = await deps.stores.email.addFact(
      { deliveryId: delivery._id, campaignId: delivery.campaignId, kind: "opened" },
      at,
      deps.email.events.opened(refOf(delivery)),
    );
    if (clicked || opened) deps.email.kick();
  }
  return claim.url;
}

/**
 * The verification key of each business's own SendGrid event webhook, read from `keyOf` (account)
 * at most every `cacheMs` per project; null when the project has none (or it does not parse).
 */
export function businessWebhookKeys(
  keyOf: (projectId: string) => Promise<string>,
  cacheMs: number,
  now: () => number = Date.now,
): (projectId: string) => Promise<KeyObject | null> {
  const cache = new Map<string, { key: KeyObject | null; at: number }>();
  return async (projectId) => {
    const hit = cache.get(projectId);
    if (hit && now() - hit.at < cacheMs) return hit.key;
    const text = await keyOf(projectId);
    let key: KeyObject | null = null;
    try {
      key = text ? sendgridKey(text) : null;
    } catch {
      key = null;
    }
    if (cache.size > 10_000) cache.clear();
    cache.set(projectId, { key, at: now() });
    return key;
  };
}

/** SendGrid's verification key (base64 DER SubjectPublicKeyInfo, as its settings page shows it) as a key. */
export function sendgridKey(base64OrPem: string): KeyObject {
  const pem = base64OrPem.includes("BEGIN PUBLIC KEY")
    ? base64OrPem
    : `-----BEGIN PUBLIC KEY-----\n${base64OrPem.trim()}\n-----END PUBLIC KEY-----\n`;
  return createPublicKey(pem);
}

/**
 * SendGrid's Signed Event Webhook: ECDSA (P-256, SHA-256) over the timestamp header followed by the
 * raw body, the signature base64 DER. Stale timestamps (over `toleranceS` away) are refused too.
 */
export function verifySendgridSignature(
  key: KeyObject,
  payload: Buffer,
  signature: string,
  timestamp: string,
  now: Date,
  toleranceS = 600,
): boolean {
  if (!/^\d{1,12}$/.test(timestamp) || signature.length === 0 || signature.length > 512) return false;
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > toleranceS) return false;
  try {
    const verifier = createVerify("sha256");
    verifier.update(timestamp);
    verifier.update(payload);
    return verifier.verify(key, Buffer.from(signature, "base64"));
  } catch {
    return false;
  }
}

interface SendgridEvent {
  event?: unknown;
  email?: unknown;
  delivery_id?: unknown;
  sg_event_id?: unknown;
  url?: unknown;
}

/**
 * Applies a batch of SendGrid events: delivered, open, click, bounce/dropped (→ consent bounced)
 * and spamreport (→ consent complained), each once per delivery (append-only facts), the consent
 * set through the contacts service. Events that name no delivery of ours are ignored, and so are,
 * for a business's own SendGrid account (`projectId`, verified with its webhook's key), those of
 * another project's deliveries.
 * @throws FORBIDDEN when the signature does not verify (or no key is configured), CR_ERR_BAD_REQUEST for a body that is not a JSON array.
 */
export async function handleSendgridEvents(
  deps: Deps,
  key: KeyObject | null,
  input: { payload: Buffer; signature: string; timestamp: string; projectId?: string },
): Promise<number> {
  if (!key || !verifySendgridSignature(key, input.payload, input.signature, input.timestamp, deps.now()))
    throw appError("FORBIDDEN", "The webhook signature does not verify");
  let events: unknown;
  try {
    events = JSON.parse(input.payload.toString("utf8"));
  } catch {
    throw appError("CR_ERR_BAD_REQUEST", "The body is not JSON");
  }
  if (!Array.isArray(events)) throw appError("CR_ERR_BAD_REQUEST", "The body is not a list of events");
  let processed = 0;
  for (const raw of events.slice(0, 1000) as SendgridEvent[]) {
    if (typeof raw !== "object" || raw === null) continue;
    const deliveryId = typeof raw.delivery_id === "string" ? raw.delivery_id.slice(0, 64) : "";
    const kind = typeof raw.event === "string" ? raw.event : "";
    if (!deliveryId) continue;
    const delivery = await deps.stores.email.delivery(deliveryId);
    if (!delivery) continue;
    if (input.projectId && delivery.projectId !== input.projectId) continue;
    await applyEvent(deps, delivery, kind, typeof raw.url === "string" ? raw.url : "");
    processed += 1;
  }
  return processed;
}

async function applyEvent(deps: Deps, delivery: DeliveryDoc, kind: string, url: string): Promise<void> {
  const repo = deps.stores.email;
  const base = { deliveryId: delivery._id, campaignId: delivery.campaignId };
  const at = deps.now();
  const ref = refOf(delivery);
  switch (kind) {
    case "delivered":
      await repo.addFact({ ...base, kind: "delivered" }, at);
      return;
    case "open":
      if (await repo.addFact({ ...base, kind: "opened" }, at, deps.email.events.opened(ref))) deps.email.kick();
      return;
    case "click":
      if (await repo.addFact({ ...base, kind: "clicked", detail: url }, at, deps.email.events.clicked(ref, url)))
        deps.email.kick();
      return;
    case "bounce":
    case "dropped":
    case "spamreport": {
      const complaint = kind === "spamreport";
      // Consent first: a failed call leaves no fact, so SendGrid's retry of the batch does it again.
      if (delivery.contactId)
        await deps.email.contacts.setConsent(
          delivery.userId,
          delivery.projectId,
          delivery.contactId,
          complaint ? "complained" : "bounced",
          complaint ? "complaint" : "bounce",
        );
      const added = await repo.addFact(
        { ...base, kind: complaint ? "complained" : "bounced", detail: kind },
        at,
        deps.email.events.bounced(ref, complaint ? "complaint" : "bounce"),
      );
      // Counted once per delivery: SendGrid redelivers webhook batches.
      if (added) {
        metrics.emailsBounced.add(1, { kind: complaint ? "complaint" : "bounce" });
        deps.email.kick();
      }
      return;
    }
    default:
      return;
  }
}
