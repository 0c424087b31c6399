import { appError } from "@crafter/kit";
import { type Counter, LIMITS, MONTHLY_COUNTERS, type Tier, usagePeriod } from "@crafter/plans";
import type { BillingDeps } from "../deps";
import { type Caller, resolveUser } from "../domain/caller";
import { tierOf } from "../store/subscription.repository";

export interface PlanView {
  tier: Tier;
  /** The subscription's plan key; "" on free. */
  planKey: string;
  limits: Record<Counter, number>;
  /** This month's use of the monthly counters (profiles: 0, contacts counts those). */
  used: Record<Counter, number>;
  /** Stripe's status, or "none" on free. */
  status: string;
  currentPeriodEnd: Date | null;
}

/**
 * The plan of the caller's user (or the user a service names): its tier from the subscription
 * (none, or not live: free), the tier's limits (@crafter/plans LIMITS) and this month's use.
 * @throws FORBIDDEN (another user's plan), UNAUTHENTICATED (nobody named).
 */
export async function getPlan(deps: BillingDeps, caller: Caller, input: { userId: string }): Promise<PlanView> {
  const resolved = resolveUser(caller.userId || undefined, input.userId);
  if ("error" in resolved) throw appError(resolved.error);
  const { userId } = resolved;
  const period = usagePeriod(deps.now());
  const [subscription, ...states] = await Promise.all([
    deps.stores.subscriptions.find(userId),
    ...MONTHLY_COUNTERS.map((counter) => deps.stores.usage.state(userId, counter, period)),
  ]);
  const tier = tierOf(subscription);
  const used: Record<Counter, number> = { profiles: 0, emails: 0, ai_images: 0, voice_minutes: 0 };
  MONTHLY_COUNTERS.forEach((counter, i) => {
    used[counter] = states[i]!.used;
  });
  return {
    tier,
    planKey: tier === "free" ? "" : (subscription?.planKey ?? ""),
    limits: { ...LIMITS[tier] },
    used,
    status: tier === "free" ? "none" : (subscription?.status ?? "active"),
    currentPeriodEnd: tier === "free" ? null : (subscription?.currentPeriodEnd ?? null),
  };
}
