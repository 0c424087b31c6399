import { appError, badRequest } from "@crafter/kit";
import { type Counter, LIMITS, limitScenario, usagePeriod } from "@crafter/plans";
import type { BillingDeps } from "../deps";
import { type Caller, resolveUser } from "../domain/caller";
import { checkUsageRequest } from "../domain/usage";
import { limitReached } from "../events/publishers";
import { TooBusy } from "../store/ledger.repository";
import { tierOf } from "../store/subscription.repository";

export interface ReserveUsageInput {
  userId: string;
  /** A monthly counter: "emails", "ai_images" or "voice_minutes". */
  counter: string;
  /** Whole units, 1–100,000. */
  amount: number;
  /** Unique per piece of work, 1–200 characters. */
  key: string;
}

/**
 * Counts `amount` of a monthly counter for this month (UTC) under the user's tier limit, all or
 * nothing, once per `key` (a repeat answers the first reservation's use and writes nothing).
 * @returns `{ used, limit, tier }` after the reservation.
 * @throws the tier's scenario (FREE_USER_LIMIT, CORE_EMAILS_LIMIT, CORE_AI_IMAGES_LIMIT,
 *   CORE_VOICE_MINUTES_LIMIT, PLAN_LIMIT_REACHED; 402) when it does not fit — LimitReached is then
 *   published once per user, counter and month; CR_ERR_BAD_REQUEST for a bad counter, amount or key;
 *   TooManyRunningActions when the counter stays too busy; FORBIDDEN / UNAUTHENTICATED.
 */
export async function reserveUsage(
  deps: BillingDeps,
  caller: Caller,
  input: ReserveUsageInput,
): Promise<{ used: number; limit: number; tier: string }> {
  const resolved = resolveUser(caller.userId || undefined, input.userId);
  if ("error" in resolved) throw appError(resolved.error);
  const fields = checkUsageRequest(input);
  if (Object.keys(fields).length > 0) throw badRequest(fields);
  const { userId } = resolved;
  const counter = input.counter as Counter;
  const tier = tierOf(await deps.stores.subscriptions.find(userId));
  const limit = LIMITS[tier][counter];
  const now = deps.now();
  const period = usagePeriod(now);
  let result: Awaited<ReturnType<typeof deps.stores.usage.reserve>>;
  try {
    result = await deps.writers.run(`usage:${userId}`, () =>
      deps.stores.usage.reserve({ userId, counter, period, key: input.key, amount: input.amount, limit }, now),
    );
  } catch (error) {
    if (error instanceof TooBusy) throw appError("TooManyRunningActions");
    throw error;
  }
  if (result.outcome !== "over") return { used: result.used, limit, tier };
  const scenario = limitScenario(tier, counter);
  const event = limitReached(deps.usageTopic, { userId, counter, tier, limit, period, scenario, at: now });
  if (await deps.stores.usage.recordLimitReached(userId, counter, period, event, now)) deps.kick();
  throw appError(scenario);
}
