import type { BillingDeps } from "../deps";
import { creditsOf, expiryAfter, type FreeTier, freeGrantKey } from "../domain/ledger";
import { creditsChanged } from "../events/publishers";

/**
 * Gives a newly registered user the free tier's credits, expiring `days` after `registeredAt`.
 * Once per user (the grant's key is unique), so a redelivered UserRegistered changes nothing.
 * Called by the UserRegistered consumer, and by reads and debits that find a user's ledger empty.
 * @returns "granted" or "already-granted".
 */
export async function grantFreeCredits(
  deps: BillingDeps,
  input: { userId: string; registeredAt: Date },
  tier: FreeTier = deps.freeTier,
): Promise<"granted" | "already-granted"> {
  if (!input.userId) throw new Error("UserRegistered without user_id");
  const expiresAt = expiryAfter(input.registeredAt, tier.days);
  const { userId } = input;
  const done = await deps.writers.run(userId, () =>
    deps.stores.ledger.appendNext(
      userId,
      freeGrantKey(userId),
      () => ({
        append: {
          kind: "grant",
          amount: tier.credits,
          expiresAt,
          source: "free-tier",
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
                delta: tier.credits,
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
  if (done.outcome !== "appended") return "already-granted";
  deps.kick();
  await deps.changed?.(userId);
  return "granted";
}
