import { badRequest } from "@crafter/kit";
import type { BillingDeps } from "../deps";
import { creditsOf, expiryAfter } from "../domain/ledger";
import { creditsChanged } from "../events/publishers";

/** What an admin grant asks for (GrantCreditsRequest). */
export interface AdminGrantInput {
  userId: string;
  amount: number;
  reason: string;
  idempotencyKey: string;
  grantedBy: string;
  /** 0 = never expires. */
  expiresInDays: number;
}

export const MAX_ADMIN_GRANT = 1_000_000;

/**
 * Appends an admin's grant to the user's ledger. Only the account service calls it
 * (access.ts): its admin RPCs check the role and write the audit log first. Idempotent by key: a
 * retry answers the balance and `granted: false`.
 * @throws CR_ERR_BAD_REQUEST for a missing user, an amount outside 1..1,000,000 or a bad key.
 */
export async function adminGrantCredits(
  deps: BillingDeps,
  input: AdminGrantInput,
): Promise<{ grantId: string; balance: number; granted: boolean }> {
  if (!input.userId) throw badRequest({ userId: "A user is required" });
  if (!Number.isInteger(input.amount) || input.amount < 1 || input.amount > MAX_ADMIN_GRANT) {
    throw badRequest({ amount: `Grant 1 to ${MAX_ADMIN_GRANT} credits` });
  }
  if (input.idempotencyKey.length < 1 || input.idempotencyKey.length > 200) {
    throw badRequest({ idempotencyKey: "The key must be 1 to 200 characters" });
  }
  const { userId, amount } = input;
  const now = deps.now();
  const expiresAt = input.expiresInDays > 0 ? expiryAfter(now, input.expiresInDays) : null;
  const done = await deps.writers.run(userId, () =>
    deps.stores.ledger.appendNext(
      userId,
      `admin-grant:${input.idempotencyKey}`,
      () => ({
        append: {
          kind: "grant",
          amount,
          expiresAt,
          source: `admin:${input.grantedBy}`,
          reason: input.reason.slice(0, 200),
          craftId: "",
          allocations: [],
          debitId: "",
          outbox: ({ id, seq, after, now: at }) => {
            const credits = creditsOf(after, at);
            return [
              creditsChanged(deps.creditsTopic, {
                userId,
                entryId: id,
                seq,
                kind: "grant",
                delta: amount,
                balance: credits.credits,
                expiresAt: credits.expiresAt,
                at,
              }),
            ];
          },
        },
        result: (after) => creditsOf(after, deps.now()).credits,
      }),
      deps.now,
    ),
  );
  if (done.outcome === "appended") {
    deps.kick();
    await deps.changed?.(userId);
    return { grantId: done.entry.id, balance: done.result, granted: true };
  }
  const balance = creditsOf(await deps.stores.ledger.balance(userId, deps.now()), deps.now()).credits;
  return { grantId: done.outcome === "key-taken" ? done.existing.id : "", balance, granted: false };
}
