// What a Stripe webhook event means for Crafter, as pure data: which user, which plan state, which
// credits, which invoice. The use case (usecases/handle-stripe-webhook.ts) applies it.
// Stripe's objects are read defensively: fields moved between API versions (the period end went
// from the subscription to its items; an invoice's subscription moved under `parent`).
import { creditPack, isPlanKey, type PlanKey, planOfKey, type Tier } from "@crafter/plans";

/** The Stripe event fields we read (a `Stripe.Event` satisfies it). */
export interface StripeEventLike {
  id: string;
  type: string;
  /** Seconds since the epoch. */
  created: number;
  data: { object: unknown };
}

/** A subscription's state as Stripe last told it. */
export interface SubscriptionState {
  userId: string;
  customerId: string;
  subscriptionId: string;
  /** null when neither the price's lookup key nor the metadata names one of ours. */
  planKey: PlanKey | null;
  status: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

/** An invoice as the payment history shows it (amounts in cents). */
export interface InvoiceRecord {
  id: string;
  userId: string;
  customerId: string;
  amountPaid: number;
  amountDue: number;
  currency: string;
  status: string;
  number: string;
  description: string;
  hostedInvoiceUrl: string;
  invoicePdf: string;
  createdAt: Date;
}

export type WebhookEffect =
  /** Checkout finished for a subscription: the user is on planKey (the subscription events refine it). */
  | { kind: "subscribed"; userId: string; customerId: string; subscriptionId: string; planKey: PlanKey }
  /**
   * Checkout finished for a credit pack (paid). `checkoutId` is Crafter's own id of the checkout
   * (metadata; "" on sessions started before it was recorded), which names the grant when present:
   * a Stripe test API may answer every checkout with the same session id.
   */
  | {
      kind: "pack";
      userId: string;
      customerId: string;
      sessionId: string;
      checkoutId: string;
      packId: string;
      credits: number;
    }
  /** A subscription was created, changed or ended. */
  | { kind: "subscription"; state: SubscriptionState; ended: boolean }
  /** An invoice was finalized, paid or failed. */
  | { kind: "invoice"; invoice: InvoiceRecord; paid: boolean }
  | { kind: "ignored"; why: string };

type Obj = Record<string, unknown>;
const obj = (value: unknown): Obj => (value && typeof value === "object" ? (value as Obj) : {});
const str = (value: unknown): string => (typeof value === "string" ? value : "");
const num = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);
/** An expandable field: the id, or the expanded object's id. */
const idOf = (value: unknown): string => str(value) || str(obj(value).id);
const dateOf = (seconds: unknown): Date | null =>
  typeof seconds === "number" && Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : null;
const metadataOf = (value: unknown): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(obj(value))) if (typeof item === "string") out[key] = item;
  return out;
};

/** Statuses in which a subscription's plan applies (past_due: Stripe is still retrying the payment). */
export const LIVE_STATUSES: ReadonlySet<string> = new Set(["active", "trialing", "past_due"]);

/** The plan key a subscription bills: its first item's price lookup key, else its metadata. */
export function planKeyOf(subscription: unknown): PlanKey | null {
  const items = obj(obj(subscription).items).data;
  const first = Array.isArray(items) ? obj(items[0]) : {};
  const lookup = str(obj(first.price).lookup_key);
  if (isPlanKey(lookup)) return lookup;
  const meta = metadataOf(obj(subscription).metadata).planKey ?? "";
  return isPlanKey(meta) ? meta : null;
}

/** A Stripe subscription object as our state (the user from its metadata; "" when absent). */
export function subscriptionState(subscription: unknown): SubscriptionState {
  const sub = obj(subscription);
  const items = obj(sub.items).data;
  const first = Array.isArray(items) ? obj(items[0]) : {};
  return {
    userId: metadataOf(sub.metadata).userId ?? "",
    customerId: idOf(sub.customer),
    subscriptionId: str(sub.id),
    planKey: planKeyOf(sub),
    status: str(sub.status) || "incomplete",
    // Newer API versions keep the period on the items.
    currentPeriodEnd: dateOf(first.current_period_end) ?? dateOf(sub.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end === true,
  };
}

/** The tier a subscription state gives: its plan's while live, else free. */
export function tierOfState(state: Pick<SubscriptionState, "planKey" | "status">): Tier {
  if (!state.planKey || !LIVE_STATUSES.has(state.status)) return "free";
  return planOfKey(state.planKey).tier;
}

function invoiceRecord(invoice: Obj): InvoiceRecord {
  const parent = obj(invoice.parent);
  const details = obj(parent.subscription_details ?? invoice.subscription_details);
  const lines = obj(invoice.lines).data;
  const firstLine = Array.isArray(lines) ? obj(lines[0]) : {};
  return {
    id: str(invoice.id),
    userId: metadataOf(invoice.metadata).userId ?? metadataOf(details.metadata).userId ?? "",
    customerId: idOf(invoice.customer),
    amountPaid: num(invoice.amount_paid),
    amountDue: num(invoice.amount_due),
    currency: str(invoice.currency) || "usd",
    status: str(invoice.status) || "open",
    number: str(invoice.number),
    description: str(invoice.description) || str(firstLine.description),
    hostedInvoiceUrl: str(invoice.hosted_invoice_url),
    invoicePdf: str(invoice.invoice_pdf),
    createdAt: dateOf(invoice.created) ?? new Date(0),
  };
}

/** What an event means; events we do not act on are "ignored". */
export function webhookEffect(event: StripeEventLike): WebhookEffect {
  const object = obj(event.data?.object);
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded": {
      const meta = metadataOf(object.metadata);
      const userId = str(object.client_reference_id) || meta.userId || "";
      if (!userId) return { kind: "ignored", why: "checkout session without client_reference_id" };
      const customerId = idOf(object.customer);
      if (object.mode === "subscription") {
        const planKey = meta.planKey ?? "";
        if (!isPlanKey(planKey)) return { kind: "ignored", why: `checkout for unknown plan key "${planKey}"` };
        return { kind: "subscribed", userId, customerId, subscriptionId: idOf(object.subscription), planKey };
      }
      if (object.mode === "payment") {
        // An asynchronous payment method finishes later (async_payment_succeeded).
        if (object.payment_status !== "paid") return { kind: "ignored", why: "checkout not paid yet" };
        const pack = creditPack(meta.packId ?? "");
        if (!pack) return { kind: "ignored", why: `checkout for unknown pack "${meta.packId ?? ""}"` };
        return {
          kind: "pack",
          userId,
          customerId,
          sessionId: str(object.id),
          checkoutId: meta.checkoutId ?? "",
          packId: pack.id,
          credits: pack.credits,
        };
      }
      return { kind: "ignored", why: `checkout mode ${str(object.mode)}` };
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.resumed":
    case "customer.subscription.paused":
      return { kind: "subscription", state: subscriptionState(object), ended: false };
    case "customer.subscription.deleted":
      return { kind: "subscription", state: { ...subscriptionState(object), status: "canceled" }, ended: true };
    case "invoice.finalized":
    case "invoice.paid":
    case "invoice.payment_failed":
    case "invoice.voided":
    case "invoice.marked_uncollectible":
      return { kind: "invoice", invoice: invoiceRecord(object), paid: event.type === "invoice.paid" };
    default:
      return { kind: "ignored", why: `event type ${event.type}` };
  }
}

/** The rank of a plan key for "upgrade or downgrade": tier first, then the yearly commitment. */
export function planRank(key: PlanKey): number {
  const { tier, billing } = planOfKey(key);
  return (tier === "pro" ? 10 : 0) + (billing === "yearly" ? 1 : 0);
}

export function changeDirection(from: PlanKey | null, to: PlanKey): "upgrade" | "downgrade" | "same" {
  if (from === to) return "same";
  if (!from) return "upgrade";
  return planRank(to) > planRank(from) ? "upgrade" : "downgrade";
}

/** The calendar month (UTC) of a plan's monthly credit grant, "YYYY-MM", and when its credits expire. */
export function grantMonth(at: Date): { month: string; expiresAt: Date } {
  const month = at.toISOString().slice(0, 7);
  const expiresAt = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { month, expiresAt };
}
