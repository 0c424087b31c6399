import { appError } from "@crafter/kit";
import type { Tier } from "@crafter/plans";
import type { BillingDeps } from "../deps";
import { type Caller, resolveUser } from "../domain/caller";
import { creditsOf, isSubscribed, type Plan } from "../domain/ledger";
import { grantFreeCredits } from "./grant-free-credits";
import { grantPlanCredits } from "./grant-plan-credits";

export interface CreditsView {
  credits: number;
  /** Earliest expiry of a grant that still has credits; null when nothing expires. */
  expiresAt: Date | null;
  plan: Plan;
  isSubscribed: boolean;
}

/**
 * The spendable credits now (expiry applied at this moment), their earliest expiry and the plan
 * of the caller's user (or the user a service names in `userId`). Two reads by `_id`-like keys
 * (the balance snapshot, checked current) and the plan, in parallel; a user whose ledger is still
 * empty (UserRegistered not consumed yet) gets the free grant first.
 * @throws FORBIDDEN (another user's credits), UNAUTHENTICATED (nobody named).
 */
export async function getCredits(deps: BillingDeps, caller: Caller, input: { userId: string }): Promise<CreditsView> {
  const resolved = resolveUser(caller.userId || undefined, input.userId);
  if ("error" in resolved) throw appError(resolved.error);
  const { userId } = resolved;
  const [balance, plan] = await Promise.all([
    deps.stores.ledger.balance(userId, deps.now()),
    deps.stores.subscriptions.planOf(userId),
  ]);
  let now = deps.now();
  let { credits, expiresAt } = creditsOf(balance, now);
  if (isSubscribed(plan) && (await grantPlanCredits(deps, userId, plan as Tier, now)) === "granted") {
    // A new month of a paid plan: its credits were just granted.
    now = deps.now();
    ({ credits, expiresAt } = creditsOf(await deps.stores.ledger.balance(userId, now), now));
  }
  if (balance.seq === 0) {
    await grantFreeCredits(deps, { userId, registeredAt: now });
    now = deps.now();
    ({ credits, expiresAt } = creditsOf(await deps.stores.ledger.balance(userId, now), now));
  }
  return { credits, expiresAt, plan, isSubscribed: isSubscribed(plan) };
}
