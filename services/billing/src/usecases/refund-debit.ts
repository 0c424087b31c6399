import { randomUUID } from "node:crypto";
import { appError, badRequest } from "@crafter/kit";
import { creditsAt } from "../domain/ledger";
import { creditsChanged } from "./credits-event";
import { type BillingDeps, backoff, MAX_APPEND_ATTEMPTS } from "./deps";

/**
 * Gives a debit's credits back to the grants they came from (credits of a grant that has expired
 * meanwhile stay expired). Exactly once: the refund's key is unique per debit, so repeated or
 * concurrent calls write one refund and all return the balance.
 * @param callerId when the caller is a user, the debit must be theirs.
 * @returns the spendable credits of the debit's user afterwards.
 * @throws NOT_FOUND for an unknown debit (or another user's); CR_ERR_BAD_REQUEST without a debit id.
 */
export async function refundDebit(deps: BillingDeps, debitId: string, callerId?: string): Promise<{ balance: number }> {
  if (!debitId) throw badRequest({ debitId: "Debit id is required." });
  const debit = await deps.stores.ledger.findById(debitId);
  if (debit?.kind !== "debit" || (callerId && debit.userId !== callerId))
    throw appError("NOT_FOUND", "Debit not found.");
  const key = `refund:${debit.id}`;
  for (let attempt = 1; attempt <= MAX_APPEND_ATTEMPTS; attempt++) {
    const done = await deps.stores.ledger.findByKey(key);
    const entries = await deps.stores.ledger.entries(debit.userId);
    const now = deps.now();
    if (done) return { balance: creditsAt(entries, now).credits };
    const id = randomUUID();
    const refund = {
      id,
      seq: creditsAt(entries, now).lastSeq + 1,
      kind: "refund" as const,
      amount: debit.amount,
      expiresAt: null,
      allocations: debit.allocations,
    };
    const after = creditsAt([...entries, refund], now);
    const result = await deps.stores.ledger.append({
      ...refund,
      userId: debit.userId,
      key,
      source: "",
      reason: debit.reason,
      craftId: debit.craftId,
      debitId: debit.id,
      balanceAfter: after.credits,
      outbox: [
        creditsChanged(deps.creditsTopic, {
          userId: debit.userId,
          entryId: id,
          seq: refund.seq,
          kind: "refund",
          delta: debit.amount,
          balance: after.credits,
          expiresAt: after.expiresAt,
          at: now,
        }),
      ],
    });
    if (result === "appended") {
      deps.kick();
      return { balance: after.credits };
    }
    if (result === "seq-taken") await backoff(attempt);
  }
  throw appError("TooManyRunningActions");
}
