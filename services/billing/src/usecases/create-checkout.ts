import { randomBytes } from "node:crypto";
import { appError, badRequest } from "@crafter/kit";
import { CURRENCY, creditPack, isPlanKey } from "@crafter/plans";
import type { BillingDeps } from "../deps";
import type { Caller } from "../domain/caller";
import { LIVE_STATUSES } from "../domain/stripe-webhook";
import { CHECKOUT_TTL_MS, type CheckoutRecord, packPurchase, planPurchase } from "../domain/test-checkout";
import { cents, priceIdFor, stripeOf } from "./stripe-prices";

export interface CheckoutInput {
  kind: string;
  planKey: string;
  packId: string;
  successUrl: string;
  cancelUrl: string;
  /** The caller's active project (recorded with the checkout); may be "". */
  projectId?: string;
}

const absolute = (url: string) => /^https?:\/\/[^\s]+$/.test(url);

/** A checkout id: `ck_` and 192 random bits, the secret in the local test checkout's URL. */
export const newCheckoutId = () => `ck_${randomBytes(24).toString("base64url")}`;

/** Where the gateway serves the local test checkout of `checkoutId`, on the success URL's origin. */
export const localCheckoutUrl = (successUrl: string, checkoutId: string) =>
  `${new URL(successUrl).origin}/checkout/test/${checkoutId}`;

/**
 * A Stripe Checkout session for the caller: a subscription to `planKey`, or a credit pack. Crafter
 * records each checkout under its own id (user, project, what is sold, price, expiry), carried with
 * the user in the session's metadata (also the subscription's and the invoice's), which is how the
 * webhooks find them. A returning customer is reused. The URL is Stripe's hosted page, or with a
 * Stripe test API that hosts none (deps.localCheckout) the gateway's local test checkout.
 * @throws CR_ERR_BAD_REQUEST (unknown kind, plan key or pack; URLs not absolute), CONFLICT (already
 * subscribed: change the plan instead), UNAVAILABLE (payments not configured).
 */
export async function createCheckout(
  deps: BillingDeps,
  caller: Caller,
  input: CheckoutInput,
): Promise<{ url: string; sessionId: string; checkoutId: string }> {
  const userId = caller.userId;
  if (!absolute(input.successUrl) || !absolute(input.cancelUrl))
    throw badRequest({ successUrl: "Success and cancel URLs must be absolute." });
  const stripe = stripeOf(deps);
  const customer = await deps.stores.payments.customerOf(userId);
  const checkoutId = newCheckoutId();
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + CHECKOUT_TTL_MS);
  const common = {
    client_reference_id: userId,
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    ...(customer ? { customer } : {}),
  };
  const record = {
    _id: checkoutId,
    userId,
    projectId: input.projectId ?? "",
    successUrl: input.successUrl,
    cancelUrl: input.cancelUrl,
    createdAt: now,
    expiresAt,
  };
  const project: Record<string, string> = input.projectId ? { projectId: input.projectId } : {};
  let checkout: CheckoutRecord;
  let url: string | null;
  if (input.kind === "subscription") {
    if (!isPlanKey(input.planKey)) throw badRequest({ planKey: "Unknown plan." });
    const current = await deps.stores.subscriptions.find(userId);
    if (current?.stripeSubscriptionId && LIVE_STATUSES.has(current.status ?? ""))
      throw appError("CONFLICT", "You already have a subscription: change its plan instead.");
    const priceId = await priceIdFor(deps, input.planKey);
    const metadata: Record<string, string> = { userId, planKey: input.planKey, checkoutId, ...project };
    const session = await stripe.checkout.sessions.create({
      ...common,
      mode: "subscription",
      line_items: [{ price: priceId, quantity: 1 }],
      metadata,
      subscription_data: { metadata },
      allow_promotion_codes: true,
    });
    checkout = {
      ...record,
      kind: "subscription",
      planKey: input.planKey,
      packId: "",
      ...planPurchase(input.planKey),
      priceId,
      stripeSessionId: session.id,
    };
    url = session.url;
  } else if (input.kind === "credits") {
    const pack = creditPack(input.packId);
    if (!pack) throw badRequest({ packId: "Unknown credit pack." });
    const metadata: Record<string, string> = { userId, packId: pack.id, checkoutId, ...project };
    const session = await stripe.checkout.sessions.create({
      ...common,
      mode: "payment",
      line_items: [
        {
          price_data: { currency: CURRENCY, unit_amount: cents(pack.price), product_data: { name: pack.name } },
          quantity: 1,
        },
      ],
      metadata,
      payment_intent_data: { metadata },
      ...(customer ? {} : { customer_creation: "always" as const }),
      // An invoice for the payment history (its PDF), like the subscription's.
      invoice_creation: { enabled: true, invoice_data: { metadata } },
    });
    checkout = {
      ...record,
      kind: "credits",
      planKey: "",
      packId: pack.id,
      ...packPurchase(pack),
      priceId: "",
      stripeSessionId: session.id,
    };
    url = session.url;
  } else {
    throw badRequest({ kind: 'Kind must be "subscription" or "credits".' });
  }
  await deps.stores.checkouts.record(checkout);
  return {
    url: deps.localCheckout ? localCheckoutUrl(input.successUrl, checkoutId) : (url ?? ""),
    sessionId: checkout.stripeSessionId,
    checkoutId,
  };
}
