/** The plans of spec section 9 (currency: not shown in the spec, so none is printed). */
export interface Plan {
  id: string;
  name: string;
  monthlyPrice: number;
  yearlyPrice: number;
  planKeys: { monthly: string; yearly: string };
  features: string[];
}

export const PLANS: Plan[] = [
  {
    id: "core",
    name: "Core",
    monthlyPrice: 29,
    yearlyPrice: 24.17,
    planKeys: { monthly: "CoreMonthly_v1", yearly: "CoreYearly_v1" },
    features: [
      "Unlimited text content",
      "Unlimited visual designer",
      "200 AI images a month",
      "Up to 1000 customer profiles",
      "4000 emails a month",
      "20 minutes of AI voice a month",
    ],
  },
  {
    id: "pro",
    name: "Pro",
    monthlyPrice: 59,
    yearlyPrice: 49.17,
    planKeys: { monthly: "ProMonthly", yearly: "ProYearly" },
    features: [
      "Everything in Core",
      "5,000 customer profiles",
      "20,000 emails a month",
      "400 AI images a month",
      "60 minutes of AI voice a month",
      "Priority rendering and faster support",
    ],
  },
];

/** "about 17%": the yearly saving against paying monthly, rounded. */
export function yearlySavingPercent(plan: Pick<Plan, "monthlyPrice" | "yearlyPrice">): number {
  return Math.round((1 - plan.yearlyPrice / plan.monthlyPrice) * 100);
}
