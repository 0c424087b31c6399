import { appError, badRequest } from "@crafter/kit";
import { isPlanKey, type PlanKey, type Tier } from "@crafter/plans";
import type { BillingDeps } from "../deps";
import type { Caller } from "../domain/caller";
import { changeDirection, LIVE_STATUSES } from "../domain/stripe-webhook";
import type { SubscriptionDoc } from "../store/subscription.repository";
import { tierOf } from "../store/subscription.repository";
import { priceIdFor, stripeOf } from "./stripe-prices";

export interface SubscriptionView {
  tier: Tier;
  planKey: string;
  status: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  hasCustomer: boolean;
}

/** The caller's subscription as the subscription page shows it ("free"/"none" without one). */
export async function getSubscription(deps: BillingDeps, caller: Caller): Promise<SubscriptionView> {
  const [doc, customer] = await Promise.all([
    deps.stores.subscriptions.find(caller.userId),
    deps.stores.payments.customerOf(caller.userId),
  ]);
  return {
    tier: tierOf(doc),
    planKey: doc?.planKey ?? "",
    status: doc?.status ?? "none",
    currentPeriodEnd: doc?.currentPeriodEnd ? new Date(doc.currentPeriodEnd) : null,
    cancelAtPeriodEnd: doc?.cancelAtPeriodEnd === true,
    hasCustomer: Boolean(customer || doc?.stripeCustomerId),
  };
}

/** The caller's live Stripe subscription, or NOT_FOUND. */
async function liveSubscription(
  deps: BillingDeps,
  userId: string,
): Promise<SubscriptionDoc & { stripeSubscriptionId: string }> {
  const doc = await deps.stores.subscriptions.find(userId);
  if (!doc?.stripeSubscriptionId || !LIVE_STATUSES.has(doc.status ?? ""))
    throw appError("NOT_FOUND", "You have no subscription to change.");
  return doc as SubscriptionDoc & { stripeSubscriptionId: string };
}

/**
 * Moves the caller's subscription to `planKey` on Stripe, prorated: an upgrade is invoiced at once
 * (`always_invoice`), a downgrade credits the unused time on the next invoice (`create_prorations`).
 * A pending cancellation is undone. Our state follows when Stripe's `customer.subscription.updated`
 * arrives (webhooks are the one writer of plans).
 * @throws CR_ERR_BAD_REQUEST (unknown plan key), NOT_FOUND (no live subscription).
 */
export async function changePlan(
  deps: BillingDeps,
  caller: Caller,
  input: { planKey: string },
): Promise<{ planKey: PlanKey; direction: "upgrade" | "downgrade" | "same" }> {
  if (!isPlanKey(input.planKey)) throw badRequest({ planKey: "Unknown plan." });
  const doc = await liveSubscription(deps, caller.userId);
  const from = doc.planKey && isPlanKey(doc.planKey) ? doc.planKey : null;
  const direction = changeDirection(from, input.planKey);
  if (direction === "same" && !doc.cancelAtPeriodEnd) return { planKey: input.planKey, direction };
  const stripe = stripeOf(deps);
  const subscription = await stripe.subscriptions.retrieve(doc.stripeSubscriptionId);
  const item = subscription.items.data[0];
  if (!item) throw appError("CONFLICT", "The subscription has no plan to change.");
  await stripe.subscriptions.update(doc.stripeSubscriptionId, {
    items: [{ id: item.id, price: await priceIdFor(deps, input.planKey) }],
    proration_behavior: direction === "upgrade" ? "always_invoice" : "create_prorations",
    cancel_at_period_end: false,
    metadata: { userId: caller.userId, planKey: input.planKey },
  });
  return { planKey: input.planKey, direction };
}

/**
 * Cancels the caller's subscription at the end of the paid period (or, with `resume`, keeps it).
 * The plan stays until Stripe ends the subscription (`customer.subscription.deleted`).
 */
export async function cancelSubscription(
  deps: BillingDeps,
  caller: Caller,
  input: { resume: boolean },
): Promise<{ cancelAtPeriodEnd: boolean }> {
  const doc = await liveSubscription(deps, caller.userId);
  await stripeOf(deps).subscriptions.update(doc.stripeSubscriptionId, { cancel_at_period_end: !input.resume });
  return { cancelAtPeriodEnd: !input.resume };
}

/** A Stripe customer portal session (payment methods, invoices, cancel) that returns to `returnUrl`. */
export async function createPortalSession(
  deps: BillingDeps,
  caller: Caller,
  input: { returnUrl: string },
): Promise<{ url: string }> {
  if (!/^https?:\/\/\S+$/.test(input.returnUrl)) throw badRequest({ returnUrl: "The return URL must be absolute." });
  const doc = await deps.stores.subscriptions.find(caller.userId);
  const customer = doc?.stripeCustomerId || (await deps.stores.payments.customerOf(caller.userId));
  if (!customer) throw appError("NOT_FOUND", "You have no billing account yet.");
  const session = await stripeOf(deps).billingPortal.sessions.create({ customer, return_url: input.returnUrl });
  return { url: session.url };
}
