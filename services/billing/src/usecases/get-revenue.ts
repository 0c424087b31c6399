import { badRequest } from "@crafter/kit";
import type { BillingDeps } from "../deps";
import { type MrrChange, mrrCentsOf, mrrSeries } from "../domain/mrr";
import { tierOf } from "../store/subscription.repository";

/** Most days one series answers. */
export const MAX_REVENUE_DAYS = 366;

/**
 * MRR at the end of each UTC day, from the recorded subscription states (domain/mrr.ts). A
 * subscription written before that history existed counts from its creation in its current state.
 * @throws CR_ERR_BAD_REQUEST for more than MAX_REVENUE_DAYS days.
 */
export async function getRevenue(
  deps: BillingDeps,
  input: { days: readonly string[] },
): Promise<{ day: string; mrrCents: number }[]> {
  if (input.days.length > MAX_REVENUE_DAYS) throw badRequest({ days: `At most ${MAX_REVENUE_DAYS} days` });
  const [changes, subscriptions] = await Promise.all([deps.stores.mrr.all(), deps.stores.subscriptions.all()]);
  const recorded = new Set(changes.map((change) => change.userId));
  const older: MrrChange[] = subscriptions
    .filter((doc) => !recorded.has(doc.userId))
    .map((doc) => ({
      userId: doc.userId,
      at: new Date(doc.createdAt),
      mrrCents: mrrCentsOf(doc.planKey, tierOf(doc) !== "free"),
    }));
  return mrrSeries([...changes, ...older], input.days);
}
