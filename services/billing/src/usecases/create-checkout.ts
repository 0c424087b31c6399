import { appError, badRequest } from "@crafter/kit";
import { CURRENCY, creditPack, isPlanKey } from "@crafter/plans";
import type { BillingDeps } from "../deps";
import type { Caller } from "../domain/caller";
import { LIVE_STATUSES } from "../domain/stripe-webhook";
import { cents, priceIdFor, stripeOf } from "./stripe-prices";

export interface CheckoutInput {
  kind: string;
  planKey: string;
  packId: string;
  successUrl: string;
  cancelUrl: string;
}

const absolute = (url: string) => /^https?:\/\/[^\s]+$/.test(url);

/**
 * A Stripe hosted Checkout session for the caller: a subscription to `planKey`, or a credit pack.
 * The session names the user (client_reference_id and metadata, also on the subscription), which
 * is how the webhooks find them. A returning customer is reused.
 * @throws CR_ERR_BAD_REQUEST (unknown kind, plan key or pack; URLs not absolute), CONFLICT (already
 * subscribed: change the plan instead), UNAVAILABLE (payments not configured).
 */
export async function createCheckout(
  deps: BillingDeps,
  caller: Caller,
  input: CheckoutInput,
): Promise<{ url: string; sessionId: string }> {
  const userId = caller.userId;
  if (!absolute(input.successUrl) || !absolute(input.cancelUrl))
    throw badRequest({ successUrl: "Success and cancel URLs must be absolute." });
  const stripe = stripeOf(deps);
  const customer = await deps.stores.payments.customerOf(userId);
  const common = {
    client_reference_id: userId,
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    ...(customer ? { customer } : {}),
  };
  if (input.kind === "subscription") {
    if (!isPlanKey(input.planKey)) throw badRequest({ planKey: "Unknown plan." });
    const current = await deps.stores.subscriptions.find(userId);
    if (current?.stripeSubscriptionId && LIVE_STATUSES.has(current.status ?? ""))
      throw appError("CONFLICT", "You already have a subscription: change its plan instead.");
    const metadata = { userId, planKey: input.planKey };
    const session = await stripe.checkout.sessions.create({
      ...common,
      mode: "subscription",
      line_items: [{ price: await priceIdFor(deps, input.planKey), quantity: 1 }],
      metadata,
      subscription_data: { metadata },
      allow_promotion_codes: true,
    });
    return { url: session.url ?? "", sessionId: session.id };
  }
  if (input.kind === "credits") {
    const pack = creditPack(input.packId);
    if (!pack) throw badRequest({ packId: "Unknown credit pack." });
    const session = await stripe.checkout.sessions.create({
      ...common,
      mode: "payment",
      line_items: [
        {
          price_data: { currency: CURRENCY, unit_amount: cents(pack.price), product_data: { name: pack.name } },
          quantity: 1,
        },
      ],
      metadata: { userId, packId: pack.id },
      ...(customer ? {} : { customer_creation: "always" as const }),
      // An invoice for the payment history (its PDF), like the subscription's.
      invoice_creation: { enabled: true, invoice_data: { metadata: { userId, packId: pack.id } } },
    });
    return { url: session.url ?? "", sessionId: session.id };
  }
  throw badRequest({ kind: 'Kind must be "subscription" or "credits".' });
}
