/**
 * Crafter's plans (spec §9). One table for every reader: billing sells them and answers GetPlan,
 * the services enforce their limits, the web and the public /pricing page show their cards.
 *
 * Currency: the spec shows none; Crafter charges in **USD** (Stripe prices are created in USD).
 */

export const CURRENCY = "usd";

export * from "./credit-packs";

/** The tier a user is on: no active subscription is `free`. */
export type Tier = "free" | "core" | "pro";
export type Billing = "monthly" | "yearly";

/** The plan keys of spec §9 (Stripe price lookup keys). */
export const PLAN_KEYS = ["CoreMonthly_v1", "CoreYearly_v1", "ProMonthly", "ProYearly"] as const;
export type PlanKey = (typeof PLAN_KEYS)[number];

export function isPlanKey(value: string): value is PlanKey {
  return (PLAN_KEYS as readonly string[]).includes(value);
}

/** The spec's plan card: id, name, planKey, monthlyPrice, yearlyPrice, original prices, yearlySavings, features. */
export interface PlanCard {
  id: Exclude<Tier, "free">;
  name: string;
  planKey: { monthly: PlanKey; yearly: PlanKey };
  /** USD a month when billed monthly. */
  monthlyPrice: number;
  /** USD a month when billed yearly (charged as 12 × this once a year). */
  yearlyPrice: number;
  /** The monthly price a yearly buyer would otherwise pay (USD a month), shown struck through. */
  originalMonthlyPrice: number;
  originalYearlyPrice: number;
  /** Whole percent saved by paying yearly ("about 17%"). */
  yearlySavings: number;
  features: string[];
}

/**
 * Each tier's limits (spec §9 for Core and Pro). The free tier's are Crafter's choice: enough to
 * try every feature on a small list (250 profiles, 500 emails, 20 AI images, 5 voice minutes a month).
 */
export const LIMITS: Readonly<Record<Tier, Readonly<Record<Counter, number>>>> = {
  free: { profiles: 250, emails: 500, ai_images: 20, voice_minutes: 5 },
  core: { profiles: 1000, emails: 4000, ai_images: 200, voice_minutes: 20 },
  pro: { profiles: 5000, emails: 20000, ai_images: 400, voice_minutes: 60 },
};

/** Whole numbers on the cards, one way: "1,000", "20,000". */
const count = (value: number) => new Intl.NumberFormat("en-US").format(value);

const savings = (monthly: number, yearly: number) => Math.round((1 - yearly / monthly) * 100);

export const PLAN_CARDS: readonly PlanCard[] = [
  {
    id: "core",
    name: "Core",
    planKey: { monthly: "CoreMonthly_v1", yearly: "CoreYearly_v1" },
    monthlyPrice: 29,
    yearlyPrice: 24.17,
    originalMonthlyPrice: 29,
    originalYearlyPrice: 29,
    yearlySavings: savings(29, 24.17),
    features: [
      "Unlimited text content",
      "Unlimited visual designer",
      `${count(LIMITS.core.ai_images)} AI images a month`,
      `Up to ${count(LIMITS.core.profiles)} customer profiles`,
      `${count(LIMITS.core.emails)} emails a month`,
      `${count(LIMITS.core.voice_minutes)} minutes of AI voice a month`,
    ],
  },
  {
    id: "pro",
    name: "Pro",
    planKey: { monthly: "ProMonthly", yearly: "ProYearly" },
    monthlyPrice: 59,
    yearlyPrice: 49.17,
    originalMonthlyPrice: 59,
    originalYearlyPrice: 59,
    yearlySavings: savings(59, 49.17),
    features: [
      "Everything in Core",
      `Up to ${count(LIMITS.pro.profiles)} customer profiles`,
      `${count(LIMITS.pro.emails)} emails a month`,
      `${count(LIMITS.pro.ai_images)} AI images a month`,
      `${count(LIMITS.pro.voice_minutes)} minutes of AI voice a month`,
      "Priority rendering and faster support",
    ],
  },
];

/** The tier and billing period a plan key sells. */
export function planOfKey(key: PlanKey): { tier: Exclude<Tier, "free">; billing: Billing } {
  const card = PLAN_CARDS.find((c) => c.planKey.monthly === key || c.planKey.yearly === key)!;
  return { tier: card.id, billing: card.planKey.monthly === key ? "monthly" : "yearly" };
}

/** What a tier's limits count. `profiles` is a live count; the others reset each calendar month (UTC). */
export const COUNTERS = ["profiles", "emails", "ai_images", "voice_minutes"] as const;
export type Counter = (typeof COUNTERS)[number];

export function isCounter(value: string): value is Counter {
  return (COUNTERS as readonly string[]).includes(value);
}

/** Counters that reset on the first of each month, UTC. */
export const MONTHLY_COUNTERS: readonly Counter[] = ["emails", "ai_images", "voice_minutes"];

/** The error codes a reached limit answers with (all HTTP 402 in @crafter/errors). */
export type LimitScenario =
  | "FREE_USER_LIMIT"
  | "CORE_CONTACTS_LIMIT"
  | "CORE_EMAILS_LIMIT"
  | "CORE_AI_IMAGES_LIMIT"
  | "CORE_VOICE_MINUTES_LIMIT"
  | "PLAN_LIMIT_REACHED";

/**
 * The upgrade prompt for a reached limit (spec "Upgrade prompts"): on free, FREE_USER_LIMIT (→ Core);
 * on Core, the counter's CORE_* scenario (→ Pro); on Pro, PLAN_LIMIT_REACHED (nothing to upgrade to).
 */
export function limitScenario(tier: Tier, counter: Counter): LimitScenario {
  if (tier === "free") return "FREE_USER_LIMIT";
  if (tier === "pro") return "PLAN_LIMIT_REACHED";
  return (
    {
      profiles: "CORE_CONTACTS_LIMIT",
      emails: "CORE_EMAILS_LIMIT",
      ai_images: "CORE_AI_IMAGES_LIMIT",
      voice_minutes: "CORE_VOICE_MINUTES_LIMIT",
    } as const
  )[counter];
}

/** The plan a scenario's upgrade modal suggests, or null (PLAN_LIMIT_REACHED). */
export function suggestedTier(scenario: LimitScenario): Exclude<Tier, "free"> | null {
  if (scenario === "FREE_USER_LIMIT") return "core";
  if (scenario === "PLAN_LIMIT_REACHED") return null;
  return "pro";
}

/** The month a monthly counter counts in: "YYYY-MM" of `at`, UTC. */
export function usagePeriod(at: Date): string {
  return at.toISOString().slice(0, 7);
}
