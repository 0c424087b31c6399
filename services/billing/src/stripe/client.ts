import { appError } from "@crafter/kit";
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

/**
 * Whether checkouts are paid on the gateway's local test checkout instead of Stripe's hosted page:
 * only with a test key (`sk_test_…`) on a Stripe API other than api.stripe.com (stripe-mock, which
 * hosts no payment page and sends no webhooks). Production keeps Stripe's hosted Checkout.
 */
export function usesLocalCheckout(config: { STRIPE_SECRET_KEY: string; STRIPE_API_URL: string }): boolean {
  if (!config.STRIPE_SECRET_KEY.startsWith("sk_test_") || !config.STRIPE_API_URL) return false;
  return new URL(config.STRIPE_API_URL).hostname !== "api.stripe.com";
}

/**
 * A Stripe SDK failure as a catalogue error, so no Stripe outage or refusal becomes a 500: Stripe
 * unreachable, rate limiting or refusing our key → UNAVAILABLE (503, retry later); a resource
 * Stripe no longer has → NOT_FOUND; any other refused request → CONFLICT (our state and Stripe's
 * disagree; the user reloads). Other errors are returned as they are.
 */
export function fromStripeError(error: unknown): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    if (error.statusCode === 404) return appError("NOT_FOUND", "Stripe has no such billing record.");
    return appError("CONFLICT", "Stripe refused the change. Reload and try again.");
  }
  if (error instanceof Stripe.errors.StripeCardError) return appError("CONFLICT", error.message);
  return appError("UNAVAILABLE", "Payments are briefly unavailable. Please try again in a moment.");
}

/** Runs a Stripe call, turning its errors into catalogue errors (fromStripeError). */
export async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw fromStripeError(error);
  }
}
