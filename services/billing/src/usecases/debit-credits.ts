import { randomUUID } from "node:crypto";
import { appError, badRequest, metrics } from "@crafter/kit";
import type { Tier } from "@crafter/plans";
import type { BillingDeps } from "../deps";
import { type Caller, resolveUser } from "../domain/caller";
import { creditsOf, decideDebitOn, isSubscribed, type Plan } from "../domain/ledger";
import { creditsChanged } from "../events/publishers";
import { TooBusy } from "../store/ledger.repository";
import { grantFreeCredits } from "./grant-free-credits";
import { grantPlanCredits } from "./grant-plan-credits";

export interface DebitInput {
  /** The user whose credits are spent: empty (the caller's own) or, for a service, the user it acts for. */
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

type DebitOutcome =
  | { debitId: string; balance: number }
  | { code: "NEED_SUBSCRIPTION" | "NOT_ENOUGH_CREDITS" }
  | "empty";

/**
 * Takes `amount` credits from the user's live grants, soonest-expiring first.
 *
 * Never below zero, never twice: `ledger.appendNext` decides on the user's balance and inserts the
 * debit with the next seq; of concurrent writers one wins each seq and the others decide again.
 * A repeated idempotency key returns the first debit (same amount required), with the balance now.
 * @returns the debit's id and the spendable credits after it.
 * @throws NEED_SUBSCRIPTION (free plan) or NOT_ENOUGH_CREDITS (paid plan) when credits are short;
 *   CR_ERR_BAD_REQUEST for a bad amount; CONFLICT when the key was used for another amount;
 *   FORBIDDEN / UNAUTHENTICATED for another user or nobody; TooManyRunningActions when the ledger
 *   stays too busy.
 */
export async function debitCredits(
  deps: BillingDeps,
  caller: Caller,
  input: DebitInput,
): Promise<{ debitId: string; balance: number }> {
  const resolved = resolveUser(caller.userId || undefined, input.userId);
  if ("error" in resolved) throw appError(resolved.error);
  checkDebit(input);
  const { userId } = resolved;
  const plan = await deps.stores.subscriptions.planOf(userId);
  // A paid plan's credits of this month first (once per month, by its ledger key).
  if (isSubscribed(plan)) await grantPlanCredits(deps, userId, plan as Tier, deps.now());
  let outcome = await appendDebit(deps, userId, input, plan);
  if (outcome === "empty") {
    // Spending before UserRegistered was consumed: the free tier first (once, by its key).
    await grantFreeCredits(deps, { userId, registeredAt: deps.now() });
    outcome = await appendDebit(deps, userId, input, plan);
  }
  if (outcome === "empty") throw appError("NEED_SUBSCRIPTION");
  if ("code" in outcome) throw appError(outcome.code);
  return outcome;
}

async function appendDebit(deps: BillingDeps, userId: string, input: DebitInput, plan: Plan): Promise<DebitOutcome> {
  const key = input.idempotencyKey ? `debit:${userId}:${input.idempotencyKey}` : `debit:${randomUUID()}`;
  let written: Awaited<ReturnType<typeof deps.stores.ledger.appendNext<DebitOutcome>>>;
  try {
    written = await deps.writers.run(userId, () =>
      deps.stores.ledger.appendNext<DebitOutcome>(
        userId,
        key,
        (balance, now) => {
          if (balance.seq === 0) return { done: "empty" };
          const decision = decideDebitOn(balance, input.amount, plan, now);
          if (!decision.ok) return { done: { code: decision.code } };
          return {
            append: {
              kind: "debit",
              amount: input.amount,
              expiresAt: null,
              source: "",
              reason: input.reason,
              craftId: input.craftId,
              allocations: decision.allocations,
              debitId: "",
              outbox: ({ id, seq, after, now: at }) => {
                const credits = creditsOf(after, at);
                return [
                  creditsChanged(deps.creditsTopic, {
                    userId,
                    entryId: id,
                    seq,
                    kind: "debit",
                    delta: -input.amount,
                    balance: credits.credits,
                    expiresAt: credits.expiresAt,
                    at,
                  }),
                ];
              },
            },
            result: () => ({ debitId: "", balance: decision.balance }),
          };
        },
        deps.now,
      ),
    );
  } catch (error) {
    if (error instanceof TooBusy) throw appError("TooManyRunningActions");
    throw error;
  }
  if (written.outcome === "done") return written.result;
  if (written.outcome === "key-taken") {
    if (written.existing.amount !== input.amount)
      throw appError("CONFLICT", "This idempotency key was used for a debit of another amount.");
    return { debitId: written.existing.id, balance: creditsOf(written.balance, deps.now()).credits };
  }
  deps.kick();
  await deps.changed?.(userId);
  metrics.creditsSpent.add(input.amount, { reason: reasonKind(input.reason) });
  return { debitId: written.entry.id, balance: creditsOf(written.after, written.entry.createdAt).credits };
}

/** The metric label of a ledger reason: its first part ("BlogWriter/outline" → "BlogWriter"), so labels stay few. */
export function reasonKind(reason: string): string {
  return reason.split(/[/:]/)[0] || "other";
}
