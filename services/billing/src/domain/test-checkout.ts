// The local test checkout, as pure data: what a checkout sells, whether it can still be paid, and
// the webhook events Stripe would send once it is paid. Used when billing talks to a Stripe test API
// that hosts no payment page (stripe-mock); the use case (usecases/test-checkout.ts) does the I/O.
//
// stripe-mock keeps nothing and answers every request with the same fixture ids (one session id,
// one customer id…). So a checkout is known by Crafter's own id (`ck_…`, carried in every object's
// metadata as checkoutId), and the objects in the events get ids of their own derived from it: two
// buyers' customers, subscriptions and invoices never share an id in billing's records.
import { type CreditPack, CURRENCY, PLAN_CARDS, type PlanKey, planOfKey } from "@crafter/plans";

/** How long a checkout can be paid after it was started (Stripe's default session lifetime). */
export const CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000;

/** A checkout as Crafter records it when it starts (one document, `_id` = the checkout id). */
export interface CheckoutRecord {
  /** `ck_` + 32 random base64url characters: the secret in the local checkout's URL. */
  _id: string;
  userId: string;
  /** The buyer's active project when they started (may be ""). */
  projectId: string;
  kind: "subscription" | "credits";
  /** Set for a subscription. */
  planKey: string;
  /** Set for a credit pack. */
  packId: string;
  /** What is bought: "Crafter Core", "500 credits". */
  name: string;
  /** One line under the name. */
  description: string;
  /** Cents, charged at once. */
  amount: number;
  currency: string;
  /** "month" | "year" for a subscription, "" for a one-off payment. */
  interval: "month" | "year" | "";
  /** Credits a pack grants (0 for a subscription). */
  credits: number;
  /** The Stripe price billed (subscriptions). */
  priceId: string;
  /** The Checkout session Stripe answered (stripe-mock: always the same fixture id). */
  stripeSessionId: string;
  successUrl: string;
  cancelUrl: string;
  createdAt: Date;
  expiresAt: Date;
}

export type CheckoutState = "open" | "complete" | "expired";

const cents = (usd: number) => Math.round(usd * 100);

/** What a checkout for a plan key sells: name, line, amount (cents) and interval. */
export function planPurchase(planKey: PlanKey) {
  const { tier, billing } = planOfKey(planKey);
  const card = PLAN_CARDS.find((c) => c.id === tier)!;
  return {
    name: `Crafter ${card.name}`,
    description: billing === "monthly" ? "Billed monthly" : "Billed yearly",
    amount: billing === "monthly" ? cents(card.monthlyPrice) : cents(card.yearlyPrice * 12),
    currency: CURRENCY,
    interval: billing === "monthly" ? ("month" as const) : ("year" as const),
    credits: 0,
  };
}

/** What a checkout for a credit pack sells. */
export function packPurchase(pack: CreditPack) {
  return {
    name: pack.name,
    description: "Credits for crafting; they never expire",
    amount: cents(pack.price),
    currency: CURRENCY,
    interval: "" as const,
    credits: pack.credits,
  };
}

/** Whether a checkout can be paid: complete once paid, expired after its expiry. */
export function checkoutState(record: Pick<CheckoutRecord, "expiresAt">, paid: boolean, now: Date): CheckoutState {
  if (paid) return "complete";
  return now.getTime() >= new Date(record.expiresAt).getTime() ? "expired" : "open";
}

/** The success URL as Stripe sends the buyer to it: `{CHECKOUT_SESSION_ID}` filled in. */
export function successUrlOf(record: Pick<CheckoutRecord, "successUrl" | "stripeSessionId">): string {
  return record.successUrl.replaceAll("{CHECKOUT_SESSION_ID}", encodeURIComponent(record.stripeSessionId));
}

/** The ids of the objects one checkout creates: Crafter's checkout id under Stripe's prefixes. */
export function objectIds(checkoutId: string) {
  const tail = checkoutId.replace(/^ck_/, "");
  return {
    customer: `cus_${tail}`,
    subscription: `sub_${tail}`,
    subscriptionItem: `si_${tail}`,
    invoice: `in_${tail}`,
    paymentIntent: `pi_${tail}`,
    charge: `ch_${tail}`,
  };
}

type Obj = Record<string, unknown>;

/** The Stripe objects the API answered while paying (stripe-mock's fixtures), to build the events on. */
export interface CreatedObjects {
  session: Obj;
  /** The customer the checkout bills: the user's existing one, or the new one's id. */
  customerId: string;
  invoice: Obj;
  subscription?: Obj;
  paymentIntent?: Obj;
}

/** A webhook event as Stripe sends it (before it is serialized and signed). */
export interface StripeEventOut {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  type: string;
  data: { object: Obj };
}

/** The metadata every object of a checkout carries: the user, what was bought, and the checkout. */
export function checkoutMetadata(record: CheckoutRecord): Record<string, string> {
  return {
    userId: record.userId,
    checkoutId: record._id,
    ...(record.projectId ? { projectId: record.projectId } : {}),
    ...(record.kind === "subscription" ? { planKey: record.planKey } : { packId: record.packId }),
  };
}

/** `months` later (UTC), on the same day or the month's last when it has fewer (Jan 31 → Feb 28), as Stripe bills. */
export function addMonths(date: Date, months: number): Date {
  const next = new Date(date);
  next.setUTCDate(1);
  next.setUTCMonth(next.getUTCMonth() + months);
  const last = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(date.getUTCDate(), last));
  return next;
}
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * The webhook events Stripe sends when this checkout is paid, in the order it usually sends them:
 * for a subscription `customer.subscription.created`, `invoice.paid`, `checkout.session.completed`;
 * for a credit pack `payment_intent.succeeded`, `invoice.paid` (Checkout's invoice_creation),
 * `checkout.session.completed`. Each object is the API's answer with what Stripe would have set:
 * this checkout's ids, metadata, amounts, statuses and period. Event ids are derived from the
 * checkout's id, so paying twice yields the same events (and the webhook handler ignores repeats).
 */
export function paidCheckoutEvents(
  record: CheckoutRecord,
  created: CreatedObjects,
  paidAt: Date,
  apiVersion: string,
): StripeEventOut[] {
  const ids = objectIds(record._id);
  const metadata = checkoutMetadata(record);
  const at = seconds(paidAt);
  const tail = record._id.replace(/^ck_/, "");
  const event = (suffix: string, type: string, object: Obj): StripeEventOut => ({
    id: `evt_${tail}_${suffix}`,
    object: "event",
    api_version: apiVersion,
    created: at,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
  const line = {
    object: "line_item",
    description:
      record.kind === "subscription"
        ? `1 × ${record.name} (at ${(record.amount / 100).toFixed(2)} ${record.currency.toUpperCase()} / ${record.interval})`
        : record.name,
    amount: record.amount,
    currency: record.currency,
    quantity: 1,
  };
  const invoice: Obj = {
    ...created.invoice,
    id: ids.invoice,
    object: "invoice",
    customer: created.customerId,
    status: "paid",
    paid: true,
    amount_due: record.amount,
    amount_paid: record.amount,
    amount_remaining: 0,
    subtotal: record.amount,
    total: record.amount,
    currency: record.currency,
    created: at,
    number: `TEST-${tail.slice(0, 8).toUpperCase()}-0001`,
    description: record.name,
    billing_reason: record.kind === "subscription" ? "subscription_create" : "manual",
    metadata,
    lines: { object: "list", data: [line], has_more: false, total_count: 1 },
    ...(record.kind === "subscription"
      ? {
          parent: {
            type: "subscription_details",
            subscription_details: { subscription: ids.subscription, metadata },
          },
        }
      : {}),
    status_transitions: { finalized_at: at, paid_at: at },
  };
  const session: Obj = {
    ...created.session,
    id: record.stripeSessionId,
    object: "checkout.session",
    mode: record.kind === "subscription" ? "subscription" : "payment",
    status: "complete",
    payment_status: "paid",
    client_reference_id: record.userId,
    customer: created.customerId,
    amount_subtotal: record.amount,
    amount_total: record.amount,
    currency: record.currency,
    created: seconds(record.createdAt),
    expires_at: seconds(record.expiresAt),
    success_url: record.successUrl,
    cancel_url: record.cancelUrl,
    metadata,
    invoice: ids.invoice,
    subscription: record.kind === "subscription" ? ids.subscription : null,
    payment_intent: record.kind === "credits" ? ids.paymentIntent : null,
  };
  if (record.kind === "subscription") {
    const periodEnd = addMonths(paidAt, record.interval === "year" ? 12 : 1);
    const subscription: Obj = {
      ...created.subscription,
      id: ids.subscription,
      object: "subscription",
      customer: created.customerId,
      status: "active",
      cancel_at_period_end: false,
      created: at,
      start_date: at,
      latest_invoice: ids.invoice,
      metadata,
      items: {
        object: "list",
        has_more: false,
        total_count: 1,
        data: [
          {
            id: ids.subscriptionItem,
            object: "subscription_item",
            quantity: 1,
            current_period_start: at,
            current_period_end: seconds(periodEnd),
            price: {
              id: record.priceId,
              object: "price",
              lookup_key: record.planKey,
              currency: record.currency,
              unit_amount: record.amount,
              recurring: { interval: record.interval, interval_count: 1 },
            },
          },
        ],
      },
    };
    return [
      event("subscription", "customer.subscription.created", subscription),
      event("invoice", "invoice.paid", invoice),
      event("session", "checkout.session.completed", session),
    ];
  }
  const paymentIntent: Obj = {
    ...created.paymentIntent,
    id: ids.paymentIntent,
    object: "payment_intent",
    amount: record.amount,
    amount_received: record.amount,
    currency: record.currency,
    customer: created.customerId,
    status: "succeeded",
    latest_charge: ids.charge,
    created: at,
    description: record.name,
    metadata,
  };
  return [
    event("payment", "payment_intent.succeeded", paymentIntent),
    event("invoice", "invoice.paid", invoice),
    event("session", "checkout.session.completed", session),
  ];
}
