import { randomUUID } from "node:crypto";
import { fromBinary } from "@bufbuild/protobuf";
import { createLogger, describeError } from "@crafter/kit";
import { throwawayDatabase } from "@crafter/kit/testing";
import { CreditsChangedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { type BillingStores, createStores } from "../src/store";
import { debitCredits } from "../src/usecases/debit-credits";
import type { BillingDeps } from "../src/usecases/deps";
import { getCredits } from "../src/usecases/get-credits";
import { grantFreeCredits } from "../src/usecases/grant-free-credits";
import { refundDebit } from "../src/usecases/refund-debit";

// Against the real MongoDB-compatible server of scripts/infra (FerretDB 1.24 locally, which does
// not isolate concurrent updates of one document), in a throwaway database. These pin the ledger's
// guarantees: never below zero, never a double spend, refunds exactly once.
let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let stores: BillingStores;
let deps: BillingDeps;
let kicks = 0;

beforeAll(async () => {
  database = await throwawayDatabase("billing");
  stores = await createStores(database.connection);
  deps = {
    stores,
    creditsTopic: "inttest.billing.credits.v1",
    kick: () => {
      kicks++;
    },
    logger: createLogger("billing-test", "silent"),
    now: () => new Date(),
  };
});

afterAll(async () => {
  await database?.drop();
});

const debitOf = (userId: string, amount: number, idempotencyKey = "") =>
  debitCredits(deps, { userId, amount, reason: "test", craftId: "craft-1", idempotencyKey });

async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return describeError(error).code;
  }
  return "resolved";
}

async function newUser(credits: number): Promise<string> {
  const userId = randomUUID();
  await grantFreeCredits(deps, { userId, registeredAt: new Date() }, { credits, days: 30 });
  return userId;
}

describe("billing ledger", () => {
  it("grants the free tier once per user, with its expiry and a CreditsChanged event", async () => {
    const userId = randomUUID();
    const registeredAt = new Date();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => grantFreeCredits(deps, { userId, registeredAt }, { credits: 100, days: 30 })),
    );
    expect(results.filter((result) => result === "granted")).toHaveLength(1);
    const view = await getCredits(deps, userId);
    expect(view).toEqual({
      credits: 100,
      expiresAt: new Date(registeredAt.getTime() + 30 * 86_400_000),
      plan: "free",
      isSubscribed: false,
    });
    const raw = await database.connection.collection("ledger_entries").find({ userId }).toArray();
    expect(raw).toHaveLength(1);
    const outbox = raw[0]!.outbox as { topic: string; key: string; type: string; payload: { buffer: Uint8Array } }[];
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({
      topic: "inttest.billing.credits.v1",
      key: userId,
      type: "crafter.events.v1.CreditsChanged",
    });
    const event = fromBinary(CreditsChangedSchema, outbox[0]!.payload.buffer);
    expect(event).toMatchObject({ userId, seq: 1, kind: "grant", delta: 100, balance: 100 });
    expect(kicks).toBeGreaterThan(0);
  });

  it("lets exactly N of many concurrent debits through on a balance of N, never below zero", async () => {
    const n = 10;
    const userId = await newUser(n);
    const outcomes = await Promise.allSettled(Array.from({ length: 3 * n }, () => debitOf(userId, 1)));
    const succeeded = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const failed = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(succeeded).toHaveLength(n);
    expect(failed.map((outcome) => describeError(outcome.reason).code)).toEqual(
      Array.from({ length: 2 * n }, () => "NEED_SUBSCRIPTION"),
    );
    const balances = succeeded.map((outcome) => outcome.value.balance).sort((a, b) => a - b);
    expect(balances).toEqual(Array.from({ length: n }, (_, i) => i));
    expect((await getCredits(deps, userId)).credits).toBe(0);
    const entries = await stores.ledger.entries(userId);
    expect(entries.map((entry) => entry.seq)).toEqual(Array.from({ length: n + 1 }, (_, i) => i + 1));
    expect(Math.min(...entries.map((entry) => entry.balanceAfter))).toBe(0);
  });

  it("refunds exactly once when Refund is called twice and concurrently", async () => {
    const userId = await newUser(5);
    const { debitId, balance } = await debitOf(userId, 3);
    expect(balance).toBe(2);
    const refunds = await Promise.all(Array.from({ length: 8 }, () => refundDebit(deps, debitId)));
    expect(refunds.map((refund) => refund.balance)).toEqual(Array.from({ length: 8 }, () => 5));
    expect(await refundDebit(deps, debitId)).toEqual({ balance: 5 });
    expect((await getCredits(deps, userId)).credits).toBe(5);
    const kinds = (await stores.ledger.entries(userId)).map((entry) => entry.kind);
    expect(kinds).toEqual(["grant", "debit", "refund"]);
  });

  it("keeps the balance right when debits and refunds race", async () => {
    const userId = await newUser(20);
    const first = await Promise.all(Array.from({ length: 10 }, () => debitOf(userId, 2)));
    await Promise.all([
      ...first.map((debit) => refundDebit(deps, debit.debitId)),
      ...first.map((debit) => refundDebit(deps, debit.debitId)),
      ...Array.from({ length: 5 }, () => debitOf(userId, 1).catch(() => undefined)),
    ]);
    const entries = await stores.ledger.entries(userId);
    const debited = entries.filter((entry) => entry.kind === "debit").reduce((sum, entry) => sum + entry.amount, 0);
    const refunded = entries.filter((entry) => entry.kind === "refund").reduce((sum, entry) => sum + entry.amount, 0);
    expect(refunded).toBe(20);
    expect((await getCredits(deps, userId)).credits).toBe(20 - debited + refunded);
  });

  it("returns the first debit for a repeated idempotency key, also under concurrency", async () => {
    const userId = await newUser(10);
    const key = randomUUID();
    const debits = await Promise.all(Array.from({ length: 6 }, () => debitOf(userId, 4, key)));
    expect(new Set(debits.map((debit) => debit.debitId)).size).toBe(1);
    expect((await getCredits(deps, userId)).credits).toBe(6);
    expect(await errorCode(debitOf(userId, 5, key))).toBe("CONFLICT");
    // The same key of another user is another debit.
    const other = await newUser(10);
    expect((await debitOf(other, 4, key)).debitId).not.toBe(debits[0]!.debitId);
  });

  it("answers NOT_ENOUGH_CREDITS on a paid plan and NEED_SUBSCRIPTION on the free plan", async () => {
    const free = await newUser(1);
    expect(await errorCode(debitOf(free, 2))).toBe("NEED_SUBSCRIPTION");
    const paid = await newUser(1);
    await stores.subscriptions.setPlan(paid, "pro");
    expect(await getCredits(deps, paid)).toMatchObject({ plan: "pro", isSubscribed: true, credits: 1 });
    expect(await errorCode(debitOf(paid, 2))).toBe("NOT_ENOUGH_CREDITS");
    expect(await errorCode(debitOf(paid, 1.5))).toBe("CR_ERR_BAD_REQUEST");
    expect(await errorCode(debitOf(paid, -1))).toBe("CR_ERR_BAD_REQUEST");
  });

  it("does not count expired grants, nor refund another user's debit", async () => {
    const userId = randomUUID();
    await grantFreeCredits(
      deps,
      { userId, registeredAt: new Date(Date.now() - 31 * 86_400_000) },
      {
        credits: 100,
        days: 30,
      },
    );
    expect(await getCredits(deps, userId)).toMatchObject({ credits: 0, expiresAt: null });
    expect(await errorCode(debitOf(userId, 1))).toBe("NEED_SUBSCRIPTION");
    const owner = await newUser(3);
    const { debitId } = await debitOf(owner, 1);
    expect(await errorCode(refundDebit(deps, debitId, userId))).toBe("NOT_FOUND");
    expect(await errorCode(refundDebit(deps, randomUUID()))).toBe("NOT_FOUND");
  });
});
