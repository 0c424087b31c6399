import { randomUUID } from "node:crypto";
import { appError, badRequest } from "@crafter/kit";
import { creditsAt, decideDebit } from "../domain/ledger";
import { creditsChanged } from "./credits-event";
import { type BillingDeps, backoff, MAX_APPEND_ATTEMPTS } from "./deps";

export interface DebitInput {
  userId: string;
  /** Whole credits, 0 to MAX_DEBIT. */
  amount: number;
  reason: string;
  craftId: string;
  /** Unique per piece of work and user; "" = always a new debit. */
  idempotencyKey: string;
}

export const MAX_DEBIT = 1_000_000;

/** Checks a debit request; CR_ERR_BAD_REQUEST with a message per bad field. */
export function checkDebit(input: DebitInput): void {
  const fields: Record<string, string> = {};
  if (!Number.isInteger(input.amount) || input.amount < 0 || input.amount > MAX_DEBIT)
    fields.amount = `Amount must be a whole number from 0 to ${MAX_DEBIT}.`;
  if (input.idempotencyKey.length > 200) fields.idempotencyKey = "Idempotency key must be at most 200 characters.";
  if (input.reason.length > 200) fields.reason = "Reason must be at most 200 characters.";
  if (input.craftId.length > 100) fields.craftId = "Craft id must be at most 100 characters.";
  if (Object.keys(fields).length > 0) throw badRequest(fields);
}

/**
 * Takes `amount` credits from the user's live grants, soonest-expiring first.
 *
 * Never below zero, never twice: the debit reads the ledger, decides, and inserts the entry with
 * the next seq; the unique (userId, seq) index lets one of several concurrent writers win and the
 * others read again. A repeated idempotency key returns the first debit (same amount required).
 * @returns the debit's id and the spendable credits after it.
 * @throws NEED_SUBSCRIPTION (free plan) or NOT_ENOUGH_CREDITS (paid plan) when credits are short;
 *   CR_ERR_BAD_REQUEST for a bad amount; CONFLICT when the key was used for another amount.
 */
export async function debitCredits(
  deps: BillingDeps,
  input: DebitInput,
): Promise<{ debitId: string; balance: number }> {
  checkDebit(input);
  const id = randomUUID();
  const key = input.idempotencyKey ? `debit:${input.userId}:${input.idempotencyKey}` : `debit:${id}`;
  const plan = await deps.stores.subscriptions.planOf(input.userId);
  for (let attempt = 1; attempt <= MAX_APPEND_ATTEMPTS; attempt++) {
    const replay = input.idempotencyKey ? await deps.stores.ledger.findByKey(key) : null;
    const entries = await deps.stores.ledger.entries(input.userId);
    const now = deps.now();
    if (replay) {
      if (replay.amount !== input.amount)
        throw appError("CONFLICT", "This idempotency key was used for a debit of another amount.");
      return { debitId: replay.id, balance: creditsAt(entries, now).credits };
    }
    const decision = decideDebit(entries, input.amount, plan, now);
    if (!decision.ok) throw appError(decision.code);
    const result = await deps.stores.ledger.append({
      id,
      userId: input.userId,
      seq: decision.seq,
      kind: "debit",
      amount: input.amount,
      key,
      expiresAt: null,
      source: "",
      reason: input.reason,
      craftId: input.craftId,
      allocations: decision.allocations,
      debitId: "",
      balanceAfter: decision.balance,
      outbox: [
        creditsChanged(deps.creditsTopic, {
          userId: input.userId,
          entryId: id,
          seq: decision.seq,
          kind: "debit",
          delta: -input.amount,
          balance: decision.balance,
          expiresAt: decision.expiresAt,
          at: now,
        }),
      ],
    });
    if (result === "appended") {
      deps.kick();
      return { debitId: id, balance: decision.balance };
    }
    // "key-taken": a concurrent call with the same key won; the next round returns its debit.
    if (result === "seq-taken") await backoff(attempt);
  }
  throw appError("TooManyRunningActions");
}
