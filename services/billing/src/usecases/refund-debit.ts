import { appError, badRequest, metrics } from "@crafter/kit";
import type { BillingDeps } from "../deps";
import type { Caller } from "../domain/caller";
import { creditsOf } from "../domain/ledger";
import { creditsChanged } from "../events/publishers";
import { TooBusy } from "../store/ledger.repository";
import { reasonKind } from "./debit-credits";

/**
 * Gives a debit's credits back to the grants they came from (credits of a grant that has expired
 * meanwhile stay expired). Exactly once: the refund's key is unique per debit, so repeated or
 * concurrent calls write one refund, and all return the balance read after it exists.
 * A user may refund only their own debits; a service any debit.
 * @returns the spendable credits of the debit's user afterwards.
 * @throws NOT_FOUND for an unknown debit (or another user's); CR_ERR_BAD_REQUEST without a debit id.
 */
export async function refundDebit(
  deps: BillingDeps,
  caller: Caller,
  input: { debitId: string },
): Promise<{ balance: number }> {
  if (!input.debitId) throw badRequest({ debitId: "Debit id is required." });
  const debit = await deps.stores.ledger.findById(input.debitId);
  if (debit?.kind !== "debit" || (caller.userId && debit.userId !== caller.userId))
    throw appError("NOT_FOUND", "Debit not found.");
  const { userId } = debit;
  try {
    const written = await deps.writers.run(userId, () =>
      deps.stores.ledger.appendNext(
        userId,
        `refund:${debit.id}`,
        () => ({
          append: {
            kind: "refund",
            amount: debit.amount,
            expiresAt: null,
            source: "",
            reason: debit.reason,
            craftId: debit.craftId,
            allocations: debit.allocations,
            debitId: debit.id,
            outbox: ({ id, seq, after, now }) => {
              const credits = creditsOf(after, now);
              return [
                creditsChanged(deps.creditsTopic, {
                  userId,
                  entryId: id,
                  seq,
                  kind: "refund",
                  delta: debit.amount,
                  balance: credits.credits,
                  expiresAt: credits.expiresAt,
                  at: now,
                }),
              ];
            },
          },
          result: (after) => after,
        }),
        deps.now,
      ),
    );
    if (written.outcome === "key-taken") return { balance: creditsOf(written.balance, deps.now()).credits };
    if (written.outcome !== "appended") throw new Error("a refund always appends or finds its key");
    deps.kick();
    await deps.changed?.(userId);
    metrics.creditsRefunded.add(debit.amount, { reason: reasonKind(debit.reason) });
    return { balance: creditsOf(written.after, written.entry.createdAt).credits };
  } catch (error) {
    if (error instanceof TooBusy) throw appError("TooManyRunningActions");
    throw error;
  }
}
