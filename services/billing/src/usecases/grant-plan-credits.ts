import { MONTHLY_CREDITS, type Tier } from "@crafter/plans";
import type { BillingDeps } from "../deps";
import { grantMonth } from "../domain/stripe-webhook";
import { grantCredits } from "./grant-credits";

/** Users whose grant of a month this process has seen written (`userId:month:tier`): skips the ledger read. */
const seen = new Set<string>();

/**
 * The monthly credit grant of a paid plan, exactly once per user and calendar month (UTC): the
 * ledger key `grant:plan:<user>:<YYYY-MM>` is unique. An upgrade to Pro within a month adds the
 * difference once (`…:pro-topup`). The credits expire when the month ends. Called when a
 * subscription starts or changes (webhooks) and by reads and debits of a subscribed user, so a new
 * month's grant arrives without a scheduler (yearly plans get theirs monthly too).
 */
export async function grantPlanCredits(
  deps: BillingDeps,
  userId: string,
  tier: Tier,
  at: Date,
): Promise<"granted" | "already-granted"> {
  if (tier === "free") return "already-granted";
  const { month, expiresAt } = grantMonth(at);
  const memo = `${userId}:${month}:${tier}`;
  if (seen.has(memo)) return "already-granted";
  const amount = MONTHLY_CREDITS[tier];
  const key = `grant:plan:${userId}:${month}`;
  const first = await grantCredits(deps, { userId, key, amount, expiresAt, source: "plan" });
  let outcome = first.outcome;
  if (first.outcome === "already-granted" && first.amount < amount) {
    ({ outcome } = await grantCredits(deps, {
      userId,
      key: `${key}:${tier}-topup`,
      amount: amount - first.amount,
      expiresAt,
      source: "plan",
    }));
  }
  if (seen.size > 100_000) seen.clear();
  seen.add(memo);
  return outcome;
}
