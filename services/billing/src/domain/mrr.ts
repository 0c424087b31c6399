import { isPlanKey, PLAN_CARDS, planOfKey } from "@crafter/plans";

// Monthly recurring revenue (Admin's charts), pure: what one subscription state adds to
// MRR, and the series over days from the history of those states.

/** What a subscription in `planKey` adds to MRR, in US cents: monthly price, a yearly charge / 12. */
export function mrrCentsOf(planKey: string | null | undefined, live: boolean): number {
  if (!live || !planKey || !isPlanKey(planKey)) return 0;
  const { tier, billing } = planOfKey(planKey);
  const card = PLAN_CARDS.find((c) => c.id === tier)!;
  // The yearly charge is 12 × the card's yearly price in cents (stripe-prices.ts), so / 12 is that price.
  return Math.round((billing === "monthly" ? card.monthlyPrice : card.yearlyPrice) * 100);
}

/** One recorded state of a user's subscription: from `at` on, it adds `mrrCents`. */
export interface MrrChange {
  userId: string;
  at: Date;
  mrrCents: number;
}

const DAY_MS = 86_400_000;

/**
 * MRR at the end of each UTC day ("YYYY-MM-DD"): per user, the latest change at or before the
 * day's end, summed. Days that are not dates answer 0.
 */
export function mrrSeries(changes: readonly MrrChange[], days: readonly string[]): { day: string; mrrCents: number }[] {
  const byUser = new Map<string, MrrChange[]>();
  for (const change of changes) {
    const list = byUser.get(change.userId) ?? [];
    list.push(change);
    byUser.set(change.userId, list);
  }
  for (const list of byUser.values()) list.sort((a, b) => a.at.getTime() - b.at.getTime());
  return days.map((day) => {
    const start = Date.parse(`${day}T00:00:00Z`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(start)) return { day, mrrCents: 0 };
    const end = start + DAY_MS;
    let total = 0;
    for (const list of byUser.values()) {
      let current = 0;
      for (const change of list) {
        if (change.at.getTime() >= end) break;
        current = change.mrrCents;
      }
      total += current;
    }
    return { day, mrrCents: total };
  });
}
