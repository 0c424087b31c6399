import { appError } from "@crafter/kit";
import { CURRENCY, PLAN_CARDS, type PlanKey, planOfKey } from "@crafter/plans";
import type Stripe from "stripe";
import type { BillingDeps } from "../deps";

/** Stripe, or UNAVAILABLE when payments are not configured (no STRIPE_SECRET_KEY). */
export function stripeOf(deps: BillingDeps): Stripe {
  if (!deps.stripe) throw appError("UNAVAILABLE", "Payments are not configured.");
  return deps.stripe;
}

/** USD → cents. */
export const cents = (usd: number) => Math.round(usd * 100);

/**
 * The Stripe price of a plan key: the active price whose lookup key is the plan key, or one created
 * with @crafter/plans' amount (a yearly plan bills 12 × its monthly price once a year). Cached per
 * process; prices are never edited in place in Stripe (a new price takes the lookup key over).
 */
export async function priceIdFor(deps: BillingDeps, key: PlanKey): Promise<string> {
  const cached = deps.priceIds.get(key);
  if (cached) return cached;
  const stripe = stripeOf(deps);
  const found = await stripe.prices.list({ lookup_keys: [key], active: true, limit: 1 });
  let price = found.data.find((p) => p.lookup_key === key);
  if (!price) {
    const { tier, billing } = planOfKey(key);
    const card = PLAN_CARDS.find((c) => c.id === tier)!;
    price = await stripe.prices.create(
      {
        lookup_key: key,
        currency: CURRENCY,
        unit_amount: billing === "monthly" ? cents(card.monthlyPrice) : cents(card.yearlyPrice * 12),
        recurring: { interval: billing === "monthly" ? "month" : "year" },
        product_data: { name: `Crafter ${card.name}` },
        metadata: { planKey: key },
      },
      { idempotencyKey: `crafter-price-${key}` },
    );
  }
  deps.priceIds.set(key, price.id);
  return price.id;
}
