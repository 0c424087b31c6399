import { randomUUID } from "node:crypto";
import { creditsAt, expiryAfter } from "../domain/ledger";
import { creditsChanged } from "./credits-event";
import { type BillingDeps, backoff, MAX_APPEND_ATTEMPTS } from "./deps";

export interface FreeTier {
  /** Credits given, >= 0. */
  credits: number;
  /** Days until the unspent credits expire. */
  days: number;
}

/**
 * Gives a newly registered user the free tier's credits, expiring `days` after `registeredAt`.
 * Once per user (the grant's key is unique), so a redelivered UserRegistered changes nothing.
 * @returns "granted" or "already-granted".
 */
export async function grantFreeCredits(
  deps: BillingDeps,
  input: { userId: string; registeredAt: Date },
  tier: FreeTier,
): Promise<"granted" | "already-granted"> {
  if (!input.userId) throw new Error("UserRegistered without user_id");
  const key = `grant:free-tier:${input.userId}`;
  const expiresAt = expiryAfter(input.registeredAt, tier.days);
  for (let attempt = 1; attempt <= MAX_APPEND_ATTEMPTS; attempt++) {
    if (await deps.stores.ledger.findByKey(key)) return "already-granted";
    const entries = await deps.stores.ledger.entries(input.userId);
    const now = deps.now();
    const id = randomUUID();
    const grant = { id, seq: creditsAt(entries, now).lastSeq + 1, kind: "grant" as const, amount: tier.credits };
    const after = creditsAt([...entries, { ...grant, expiresAt, allocations: [] }], now);
    const result = await deps.stores.ledger.append({
      ...grant,
      userId: input.userId,
      key,
      expiresAt,
      source: "free-tier",
      reason: "",
      craftId: "",
      allocations: [],
      debitId: "",
      balanceAfter: after.credits,
      outbox: [
        creditsChanged(deps.creditsTopic, {
          userId: input.userId,
          entryId: id,
          seq: grant.seq,
          kind: "grant",
          delta: tier.credits,
          balance: after.credits,
          expiresAt: after.expiresAt,
          at: now,
        }),
      ],
    });
    if (result === "appended") {
      deps.kick();
      return "granted";
    }
    if (result === "key-taken") return "already-granted";
    await backoff(attempt);
  }
  throw new Error(`could not append the free grant of ${input.userId}: ledger too busy`);
}
