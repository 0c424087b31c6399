import { badRequest } from "@crafter/kit";
import { planOfKey, type Tier } from "@crafter/plans";
import type { BillingDeps } from "../deps";
import { mrrCentsOf } from "../domain/mrr";
import { payingUser } from "../domain/referrals";
import {
  type StripeEventLike,
  type SubscriptionState,
  tierOfState,
  type WebhookEffect,
  webhookEffect,
} from "../domain/stripe-webhook";
import { subscriptionChanged } from "../events/publishers";
import { grantCredits } from "./grant-credits";
import { grantPlanCredits } from "./grant-plan-credits";
import { rewardReferral } from "./referrals";
import { stripeOf } from "./stripe-prices";

export type WebhookOutcome = "handled" | "duplicate" | "ignored";

/**
 * One Stripe webhook delivery. The signature is checked on the raw body with the endpoint's secret
 * (`stripe.webhooks.constructEvent`, which also refuses a timestamp older than 5 minutes). An event
 * already handled changes nothing. Effects are idempotent themselves (plans are set to Stripe's
 * state, newer events win; credits go through unique ledger keys), so two concurrent deliveries of
 * one event are safe; the event is recorded after its effects (a failure leaves it for Stripe's
 * retry) with the SubscriptionChanged it caused in its outbox, published once.
 * @throws CR_ERR_BAD_REQUEST when the signature does not verify (or no webhook secret is set).
 */
export async function handleStripeWebhook(
  deps: BillingDeps,
  input: { payload: Uint8Array; signature: string },
): Promise<{ outcome: WebhookOutcome; eventType: string }> {
  const stripe = stripeOf(deps);
  let event: StripeEventLike;
  try {
    if (!deps.stripeWebhookSecret) throw new Error("no webhook secret");
    event = stripe.webhooks.constructEvent(Buffer.from(input.payload), input.signature, deps.stripeWebhookSecret);
  } catch {
    throw badRequest({ signature: "The Stripe signature does not verify." });
  }
  if (await deps.stores.payments.handled(event.id)) return { outcome: "duplicate", eventType: event.type };
  const eventAt = new Date(event.created * 1000);
  const effect = webhookEffect(event);
  const applied = await apply(deps, effect, eventAt);
  // A referred user's first successful payment rewards both sides (once: unique ledger keys).
  const payer = payingUser(effect, applied.userId);
  if (payer) await rewardReferral(deps, payer);
  const outcome: WebhookOutcome = applied.userId ? "handled" : "ignored";
  if (!applied.userId) deps.logger.info({ eventId: event.id, type: event.type, effect }, "stripe event not acted on");
  const outbox = applied.state
    ? [
        subscriptionChanged(deps.subscriptionTopic, {
          userId: applied.userId,
          tier: applied.tier,
          state: applied.state,
          stripeEventId: event.id,
          at: deps.now(),
        }),
      ]
    : [];
  await deps.stores.payments.markHandled({
    _id: event.id,
    type: event.type,
    userId: applied.userId,
    eventAt,
    outcome,
    outbox,
  });
  if (outbox.length > 0) deps.kick();
  if (applied.userId) await deps.changed?.(applied.userId);
  return { outcome, eventType: event.type };
}

interface Applied {
  userId: string;
  /** Set when the user's plan was (re)written: the SubscriptionChanged to publish. */
  state?: SubscriptionState;
  tier: Tier;
}

async function apply(deps: BillingDeps, effect: WebhookEffect, eventAt: Date): Promise<Applied> {
  const { payments, subscriptions } = deps.stores;
  switch (effect.kind) {
    case "ignored":
      return { userId: "", tier: "free" };
    case "subscribed": {
      await payments.rememberCustomer(effect.customerId, effect.userId);
      const state: SubscriptionState = {
        userId: effect.userId,
        customerId: effect.customerId,
        subscriptionId: effect.subscriptionId,
        planKey: effect.planKey,
        status: "active",
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
      };
      const current = await subscriptions.find(effect.userId);
      // A subscription event that came first already wrote the full state; only fill the gap.
      if (current?.stripeSubscriptionId === effect.subscriptionId && current.stripeEventAt) {
        return { userId: effect.userId, tier: planOfKey(effect.planKey).tier };
      }
      return writeState(deps, state, eventAt);
    }
    case "pack": {
      await payments.rememberCustomer(effect.customerId, effect.userId);
      await grantCredits(deps, {
        userId: effect.userId,
        key: `grant:pack:${effect.checkoutId || effect.sessionId}`,
        amount: effect.credits,
        expiresAt: null,
        source: "pack",
      });
      return { userId: effect.userId, tier: "free" };
    }
    case "subscription": {
      const userId = effect.state.userId || (await payments.userOfCustomer(effect.state.customerId));
      if (!userId) return { userId: "", tier: "free" };
      const current = await subscriptions.find(userId);
      // Webhooks arrive in any order: an older event than the one the state came from is stale.
      if (current?.stripeEventAt && new Date(current.stripeEventAt) > eventAt) return { userId, tier: "free" };
      // Another subscription of the user (a replaced one ending) does not end the current one.
      if (effect.ended && current?.stripeSubscriptionId && current.stripeSubscriptionId !== effect.state.subscriptionId)
        return { userId, tier: "free" };
      return writeState(deps, { ...effect.state, userId }, eventAt);
    }
    case "invoice": {
      const userId = effect.invoice.userId || (await payments.userOfCustomer(effect.invoice.customerId));
      if (!userId) return { userId: "", tier: "free" };
      await payments.saveInvoice({ ...effect.invoice, userId }, eventAt);
      return { userId, tier: "free" };
    }
  }
}

/** Writes the user's plan as Stripe states it, and a live paid plan's credits for this month. */
async function writeState(deps: BillingDeps, state: SubscriptionState, eventAt: Date): Promise<Applied> {
  const tier = tierOfState(state);
  await deps.stores.subscriptions.setPlan(state.userId, tier, {
    planKey: state.planKey ?? "",
    status: state.status,
    cancelAtPeriodEnd: state.cancelAtPeriodEnd,
    stripeSubscriptionId: state.subscriptionId,
    stripeEventAt: eventAt,
    ...(state.customerId ? { stripeCustomerId: state.customerId } : {}),
    ...(state.currentPeriodEnd ? { currentPeriodEnd: state.currentPeriodEnd } : {}),
  });
  if (state.customerId) await deps.stores.payments.rememberCustomer(state.customerId, state.userId);
  // Admin's MRR over time (domain/mrr.ts): the state from this event on; a redelivery adds nothing.
  await deps.stores.mrr.record({
    userId: state.userId,
    at: eventAt,
    mrrCents: mrrCentsOf(state.planKey, tier !== "free"),
  });
  await grantPlanCredits(deps, state.userId, tier, deps.now());
  return { userId: state.userId, state, tier };
}
