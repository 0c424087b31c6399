import { appError, badRequest } from "@crafter/kit";
import type { BillingDeps } from "../deps";
import { type Caller, resolveUser } from "../domain/caller";
import { checkUsageRequest } from "../domain/usage";
import { TooBusy } from "../store/ledger.repository";

/**
 * Gives back the reservation made with `key` (its work failed), in the month it was made, once;
 * an unknown key or a second release changes nothing.
 * @returns `{ used }`: that month's use of the counter after the release (0 for an unknown key).
 * @throws CR_ERR_BAD_REQUEST for a bad counter or key; TooManyRunningActions; FORBIDDEN / UNAUTHENTICATED.
 */
export async function releaseUsage(
  deps: BillingDeps,
  caller: Caller,
  input: { userId: string; counter: string; key: string },
): Promise<{ used: number }> {
  const resolved = resolveUser(caller.userId || undefined, input.userId);
  if ("error" in resolved) throw appError(resolved.error);
  const fields = checkUsageRequest(input);
  if (Object.keys(fields).length > 0) throw badRequest(fields);
  const { userId } = resolved;
  try {
    const { used } = await deps.writers.run(`usage:${userId}`, () =>
      deps.stores.usage.release({ userId, counter: input.counter, key: input.key }, deps.now()),
    );
    return { used };
  } catch (error) {
    if (error instanceof TooBusy) throw appError("TooManyRunningActions");
    throw error;
  }
}
