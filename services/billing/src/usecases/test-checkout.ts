import { appError } from "@crafter/kit";
import Stripe from "stripe";
import type { BillingDeps } from "../deps";
import { LIVE_STATUSES } from "../domain/stripe-webhook";
import {
  type CheckoutRecord,
  type CheckoutState,
  type CreatedObjects,
  checkoutMetadata,
  checkoutState,
  objectIds,
  paidCheckoutEvents,
  successUrlOf,
} from "../domain/test-checkout";
import { stripeOf } from "./stripe-prices";

/** What the local test checkout page shows. */
export interface TestCheckoutView {
  checkout: CheckoutRecord;
  state: CheckoutState;
}

const CHECKOUT_ID = /^ck_[A-Za-z0-9_-]{16,64}$/;

/** The checkout, when billing pays checkouts locally; NOT_FOUND otherwise (also for malformed ids). */
async function localCheckout(deps: BillingDeps, checkoutId: string): Promise<CheckoutRecord> {
  const checkout =
    deps.localCheckout && CHECKOUT_ID.test(checkoutId) ? await deps.stores.checkouts.find(checkoutId) : null;
  if (!checkout) throw appError("NOT_FOUND", "This checkout does not exist.");
  return checkout;
}

/**
 * A local test checkout and whether it can be paid.
 * @throws NOT_FOUND for an unknown id, or when billing uses Stripe's hosted Checkout.
 */
export async function getTestCheckout(deps: BillingDeps, input: { checkoutId: string }): Promise<TestCheckoutView> {
  const checkout = await localCheckout(deps, input.checkoutId);
  const paid = (await deps.stores.checkouts.paymentOf(checkout._id)) !== null;
  return { checkout, state: checkoutState(checkout, paid, deps.now()) };
}

/**
 * Pays a local test checkout as Stripe's hosted page would: creates, through the Stripe API
 * (stripe-mock), the customer (unless the user has one), the subscription or the payment intent,
 * and the invoice, then records the payment with the webhook events Stripe would send
 * (domain/test-checkout.ts paidCheckoutEvents) and answers them signed with the endpoint's secret
 * (Stripe's scheme: `Stripe-Signature: t=…,v1=…`), for the gateway to deliver to its webhook
 * endpoint. Single use: once paid (also by a concurrent call), it answers the recorded events again,
 * freshly signed; the webhook handler ignores events it has handled.
 * @throws NOT_FOUND as getTestCheckout; CONFLICT when the checkout expired, or when a subscription
 *   checkout finds the user subscribed meanwhile.
 */
export async function completeTestCheckout(
  deps: BillingDeps,
  input: { checkoutId: string },
): Promise<{ successUrl: string; deliveries: Array<{ payload: string; signature: string }> }> {
  const checkout = await localCheckout(deps, input.checkoutId);
  const sign = (payloads: string[]) => ({
    successUrl: successUrlOf(checkout),
    deliveries: payloads.map((payload) => ({
      payload,
      signature: stripeOf(deps).webhooks.generateTestHeaderString({ payload, secret: deps.stripeWebhookSecret }),
    })),
  });
  const paid = await deps.stores.checkouts.paymentOf(checkout._id);
  if (paid) return sign(paid.events);
  if (checkoutState(checkout, false, deps.now()) === "expired")
    throw appError("CONFLICT", "This checkout has expired. Start again from Crafter.");
  if (checkout.kind === "subscription") {
    const current = await deps.stores.subscriptions.find(checkout.userId);
    if (current?.stripeSubscriptionId && LIVE_STATUSES.has(current.status ?? ""))
      throw appError("CONFLICT", "You already have a subscription: change its plan instead.");
  }
  const created = await createObjects(deps, checkout);
  const events = paidCheckoutEvents(checkout, created, deps.now(), Stripe.API_VERSION).map((event) =>
    JSON.stringify(event, null, 2),
  );
  if (!(await deps.stores.checkouts.pay({ _id: checkout._id, userId: checkout.userId, events }))) {
    // Paid by a concurrent call: its events are the ones that count.
    const first = await deps.stores.checkouts.paymentOf(checkout._id);
    return sign(first?.events ?? events);
  }
  return sign(events);
}

/**
 * The Stripe API calls the hosted page makes when a buyer pays, with idempotency keys per
 * checkout (a retried Pay repeats none). stripe-mock validates each request against Stripe's API
 * and answers fixtures; the events then carry this checkout's ids and values (paidCheckoutEvents).
 */
async function createObjects(deps: BillingDeps, checkout: CheckoutRecord): Promise<CreatedObjects> {
  const stripe = stripeOf(deps);
  const metadata = checkoutMetadata(checkout);
  const key = (what: string) => ({ idempotencyKey: `crafter-test-checkout-${checkout._id}-${what}` });
  const existing = await deps.stores.payments.customerOf(checkout.userId);
  let customerId = existing;
  if (!customerId) {
    await stripe.customers.create({ metadata: { userId: checkout.userId } }, key("customer"));
    customerId = objectIds(checkout._id).customer;
  }
  const session = await stripe.checkout.sessions.retrieve(checkout.stripeSessionId);
  if (checkout.kind === "subscription") {
    const subscription = await stripe.subscriptions.create(
      { customer: customerId, items: [{ price: checkout.priceId, quantity: 1 }], metadata },
      key("subscription"),
    );
    const invoice = await stripe.invoices.create(
      { customer: customerId, subscription: subscription.id, metadata, description: checkout.name },
      key("invoice"),
    );
    return { session: plain(session), customerId, invoice: plain(invoice), subscription: plain(subscription) };
  }
  const paymentIntent = await stripe.paymentIntents.create(
    {
      amount: checkout.amount,
      currency: checkout.currency,
      customer: customerId,
      description: checkout.name,
      metadata,
      payment_method: "pm_card_visa",
      confirm: true,
    },
    key("payment"),
  );
  const invoice = await stripe.invoices.create(
    { customer: customerId, metadata, description: checkout.name },
    key("invoice"),
  );
  return { session: plain(session), customerId, invoice: plain(invoice), paymentIntent: plain(paymentIntent) };
}

/** A Stripe SDK answer as plain JSON (without the SDK's lastResponse). */
const plain = (object: object): Record<string, unknown> => {
  const { lastResponse: _ignored, ...rest } = object as Record<string, unknown>;
  return rest;
};
