import { type Counter, isCounter, MONTHLY_COUNTERS } from "@crafter/plans";

/** Bounds of a ReserveUsage request. */
export const MAX_USAGE_AMOUNT = 100_000;
export const MAX_USAGE_KEY = 200;

/** A monthly counter's state: how many entries it has (seq) and the units used after them. */
export interface UsageState {
  seq: number;
  used: number;
}

export const EMPTY_USAGE: UsageState = { seq: 0, used: 0 };

/**
 * Checks a reserve or release request.
 * @returns the field errors (empty when good): counter must be a monthly counter, amount a whole
 *   number 1–100,000 (reserve only), key 1–200 characters.
 */
export function checkUsageRequest(input: { counter: string; amount?: number; key: string }): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!isCounter(input.counter) || !MONTHLY_COUNTERS.includes(input.counter as Counter))
    fields.counter = `Counter must be one of ${MONTHLY_COUNTERS.join(", ")}.`;
  if (
    input.amount !== undefined &&
    (!Number.isInteger(input.amount) || input.amount < 1 || input.amount > MAX_USAGE_AMOUNT)
  )
    fields.amount = `Amount must be a whole number from 1 to ${MAX_USAGE_AMOUNT}.`;
  if (input.key.length < 1 || input.key.length > MAX_USAGE_KEY)
    fields.key = `Key must be 1 to ${MAX_USAGE_KEY} characters.`;
  return fields;
}

/** Whether `amount` more fits under `limit`: all or nothing. */
export function decideReserve(
  state: UsageState,
  amount: number,
  limit: number,
): { ok: true; usedAfter: number } | { ok: false } {
  const usedAfter = state.used + amount;
  return usedAfter <= limit ? { ok: true, usedAfter } : { ok: false };
}
