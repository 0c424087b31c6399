import { creditsAt, isSubscribed, type Plan } from "../domain/ledger";
import type { BillingDeps } from "./deps";

export interface CreditsView {
  credits: number;
  /** Earliest expiry of a grant that still has credits; null when nothing expires. */
  expiresAt: Date | null;
  plan: Plan;
  isSubscribed: boolean;
}

/** The user's spendable credits now, their earliest expiry and plan. */
export async function getCredits(deps: Pick<BillingDeps, "stores" | "now">, userId: string): Promise<CreditsView> {
  const [entries, plan] = await Promise.all([
    deps.stores.ledger.entries(userId),
    deps.stores.subscriptions.planOf(userId),
  ]);
  const { credits, expiresAt } = creditsAt(entries, deps.now());
  return { credits, expiresAt, plan, isSubscribed: isSubscribed(plan) };
}
