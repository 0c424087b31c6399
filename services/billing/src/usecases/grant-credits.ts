import type { BillingDeps } from "../deps";
import { creditsOf } from "../domain/ledger";
import { creditsChanged } from "../events/publishers";

export interface GrantInput {
  userId: string;
  /** Unique per cause: the grant is written once however often it is asked for. */
  key: string;
  /** Whole credits, > 0. */
  amount: number;
  /** When the unspent credits stop counting; null = never. */
  expiresAt: Date | null;
  /** Why: "plan", "pack", "referral"… (the wallet's history shows it). */
  source: string;
}

/**
 * Appends a grant to the user's ledger once per `key` (with its CreditsChanged).
 * @returns "granted", or the amount of the grant already written under that key.
 */
export async function grantCredits(
  deps: BillingDeps,
  input: GrantInput,
): Promise<{ outcome: "granted" } | { outcome: "already-granted"; amount: number }> {
  const { userId } = input;
  const done = await deps.writers.run(userId, () =>
    deps.stores.ledger.appendNext(
      userId,
      input.key,
      () => ({
        append: {
          kind: "grant",
          amount: input.amount,
          expiresAt: input.expiresAt,
          source: input.source,
          reason: "",
          craftId: "",
          allocations: [],
          debitId: "",
          outbox: ({ id, seq, after, now }) => {
            const credits = creditsOf(after, now);
            return [
              creditsChanged(deps.creditsTopic, {
                userId,
                entryId: id,
                seq,
                kind: "grant",
                delta: input.amount,
                balance: credits.credits,
                expiresAt: credits.expiresAt,
                at: now,
              }),
            ];
          },
        },
        result: () => "granted" as const,
      }),
      deps.now,
    ),
  );
  if (done.outcome === "key-taken") return { outcome: "already-granted", amount: done.existing.amount };
  if (done.outcome !== "appended") return { outcome: "already-granted", amount: 0 };
  deps.kick();
  await deps.changed?.(userId);
  return { outcome: "granted" };
}
