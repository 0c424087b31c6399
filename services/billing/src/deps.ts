import type { Logger } from "@crafter/kit";
import type { PlanKey } from "@crafter/plans";
import type Stripe from "stripe";
import type { FreeTier } from "./domain/ledger";
import type { BillingStores } from "./store";
import type { KeyedQueue } from "./store/keyed-queue";

/** What the billing use cases need; built once in main.ts (tests build their own). */
export interface BillingDeps {
  stores: BillingStores;
  /** Queues each user's ledger writes in this process (by user id). */
  writers: KeyedQueue;
  /** Topic of CreditsChanged (`<namespace>.billing.credits.v1`). */
  creditsTopic: string;
  /** Topic of LimitReached (`<namespace>.billing.usage.v1`). */
  usageTopic: string;
  /** Wakes the outbox relay (after a write that added an event); a no-op before it starts. */
  kick(): void;
  /**
   * Tells readers that cache the user's credits (the gateway) that they changed; awaited before
   * a write answers, so a read right after a debit is never stale. Optional (tests).
   */
  changed?(userId: string): Promise<void>;
  logger: Logger;
  /** The clock (injected so tests can fix it). */
  now(): Date;
  /** The free tier's grant (FREE_CREDITS, FREE_CREDITS_DAYS). */
  freeTier: FreeTier;
  /** The Stripe SDK (stripe-mock in the tests); null when payments are off (no STRIPE_SECRET_KEY). */
  stripe: Stripe | null;
  /** The webhook endpoint's signing secret (STRIPE_WEBHOOK_SECRET). */
  stripeWebhookSecret: string;
  /** Stripe price ids by plan key, found or created on first use (usecases/stripe-prices.ts). */
  priceIds: Map<PlanKey, string>;
  /**
   * Checkouts are paid on the gateway's local test checkout (stripe/client.ts usesLocalCheckout);
   * absent or false: Stripe's hosted Checkout.
   */
  localCheckout?: boolean;
  /** Topic of SubscriptionChanged (`<namespace>.billing.subscription.v1`). */
  subscriptionTopic: string;
}
