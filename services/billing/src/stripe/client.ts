import Stripe from "stripe";

/**
 * The Stripe SDK for billing: api.stripe.com, or another base (`STRIPE_API_URL`, stripe-mock in the
 * tests). Null without a secret key (payments off). Retries twice on network errors and 5xx, as
 * Stripe advises (its idempotency keys make the retried POSTs safe).
 */
export function createStripe(config: { STRIPE_SECRET_KEY: string; STRIPE_API_URL: string }): Stripe | null {
  if (!config.STRIPE_SECRET_KEY) return null;
  const base = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : undefined;
  return new Stripe(config.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === "https:" ? 443 : 80),
          protocol: base.protocol === "https:" ? "https" : "http",
        }
      : {}),
  });
}

export type { Stripe };
