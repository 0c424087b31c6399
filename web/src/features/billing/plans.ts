import { PLAN_CARDS } from "@crafter/plans";

/** The plans of spec section 9, as this page shows them; the cards themselves live in @crafter/plans. */
export interface Plan {
  id: string;
  name: string;
  monthlyPrice: number;
  yearlyPrice: number;
  planKeys: { monthly: string; yearly: string };
  features: string[];
}

export const PLANS: Plan[] = PLAN_CARDS.map((card) => ({
  id: card.id,
  name: card.name,
  monthlyPrice: card.monthlyPrice,
  yearlyPrice: card.yearlyPrice,
  planKeys: card.planKey,
  features: card.features,
}));

/** "about 17%": the yearly saving against paying monthly, rounded. */
export function yearlySavingPercent(plan: Pick<Plan, "monthlyPrice" | "yearlyPrice">): number {
  return Math.round((1 - plan.yearlyPrice / plan.monthlyPrice) * 100);
}
