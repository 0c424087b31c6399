import { randomUUID } from "node:crypto";
import { fromBinary } from "@bufbuild/protobuf";
import { createLogger, describeError } from "@crafter/kit";
import { throwawayDatabase } from "@crafter/kit/testing";
import { MONTHLY_CREDITS } from "@crafter/plans";
import { CreditsChangedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import type { BillingDeps } from "../src/deps";
import type { Caller } from "../src/domain/caller";
import { type BillingStores, createStores } from "../src/store";
import { KeyedQueue } from "../src/store/keyed-queue";
import { debitCredits } from "../src/usecases/debit-credits";
import { getCredits } from "../src/usecases/get-credits";
import { grantFreeCredits } from "../src/usecases/grant-free-credits";
import { refundDebit } from "../src/usecases/refund-debit";

// Against the real MongoDB-compatible server of scripts/infra (FerretDB 1.24 locally, which does
// not isolate concurrent updates of one document), in a throwaway database. These pin the ledger's
// guarantees: never below zero, never a double spend, refunds exactly once. The machine may be
// shared and slow, hence the generous per-test limit (no test here measures speed).
jest.setTimeout(180_000);
let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let stores: BillingStores;
let deps: BillingDeps;
let kicks = 0;

beforeAll(async () => {
  database = await throwawayDatabase("billing");
  stores = await createStores(database.connection);
  deps = {
    stores,
    writers: new KeyedQueue(),
    creditsTopic: "inttest.billing.credits.v1",
    usageTopic: "inttest.billing.usage.v1",
    kick: () => {
      kicks++;
    },
    logger: createLogger("billing-test", "silent"),
    now: () => new Date(),
    freeTier: { credits: 100, days: 30 },
    stripe: null,
    stripeWebhookSecret: "",
    priceIds: new Map(),
    subscriptionTopic: "inttest.billing.subscription.v1",
  };
});

afterAll(async () => {
  await database?.drop();
});

/**
 * Deps of `count` billing replicas over one database: each queues its own writes, so calls spread
 * over them race for the ledger's seq as separate processes would.
 */
const replicas = (count: number): BillingDeps[] =>
  Array.from({ length: count }, () => ({ ...deps, writers: new KeyedQueue() }));

/** A service acting for the user it names (workflows spending for a user). */
const SERVICE: Caller = {
  userId: "",
  role: "service",
  token: undefined,
  signal: new AbortController().signal,
  service: "workflows",
};
const asUser = (userId: string): Caller => ({ ...SERVICE, userId, role: "owner", service: undefined });

const debitOf = (userId: string, amount: number, idempotencyKey = "", on: BillingDeps = deps) =>
  debitCredits(on, SERVICE, { userId, amount, reason: "test", craftId: "craft-1", idempotencyKey });

async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return describeError(error).code;
  }
  return "resolved";
}

function debit1(userId: string) {
  return debitCredits(deps, SERVICE, {
    userId,
    amount: 1,
    reason: "test",
    craftId: "craft-1",
    idempotencyKey: randomUUID(),
  });
}

async function newUser(credits: number): Promise<string> {
  const userId = randomUUID();
  await grantFreeCredits(deps, { userId, registeredAt: new Date() }, { credits, days: 30 });
  return userId;
}

describe("billing ledger", () => {
  it("gives the free tier to a user who spends before UserRegistered is consumed, once", async () => {
    const userId = randomUUID();
    const [debit] = await Promise.all([debit1(userId), getCredits(deps, SERVICE, { userId: userId })]);
    expect(debit.balance).toBe(99);
    // The late event finds the grant already written.
    expect(await grantFreeCredits(deps, { userId, registeredAt: new Date() })).toBe("already-granted");
    expect((await getCredits(deps, SERVICE, { userId: userId })).credits).toBe(99);
  });

  it("grants the free tier once per user, with its expiry and a CreditsChanged event", async () => {
    const userId = randomUUID();
    const registeredAt = new Date();
    const results = await Promise.all(
      replicas(5).map((replica) => grantFreeCredits(replica, { userId, registeredAt }, { credits: 100, days: 30 })),
    );
    expect(results.filter((result) => result === "granted")).toHaveLength(1);
    const view = await getCredits(deps, SERVICE, { userId: userId });
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
    const replicaDeps = replicas(6);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 3 * n }, (_, i) => debitOf(userId, 1, "", replicaDeps[i % replicaDeps.length])),
    );
    const succeeded = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const failed = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(succeeded).toHaveLength(n);
    expect(failed.map((outcome) => describeError(outcome.reason).code)).toEqual(
      Array.from({ length: 2 * n }, () => "NEED_SUBSCRIPTION"),
    );
    const balances = succeeded.map((outcome) => outcome.value.balance).sort((a, b) => a - b);
    expect(balances).toEqual(Array.from({ length: n }, (_, i) => i));
    expect((await getCredits(deps, SERVICE, { userId: userId })).credits).toBe(0);
    const entries = await stores.ledger.entries(userId);
    expect(entries.map((entry) => entry.seq)).toEqual(Array.from({ length: n + 1 }, (_, i) => i + 1));
    expect(Math.min(...entries.map((entry) => entry.balanceAfter))).toBe(0);
  });

  it("refunds exactly once when Refund is called twice and concurrently", async () => {
    const userId = await newUser(5);
    const { debitId, balance } = await debitOf(userId, 3);
    expect(balance).toBe(2);
    const replicaDeps = replicas(4);
    const refunds = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        refundDebit(replicaDeps[i % replicaDeps.length]!, SERVICE, { debitId: debitId }),
      ),
    );
    expect(refunds.map((refund) => refund.balance)).toEqual(Array.from({ length: 8 }, () => 5));
    expect(await refundDebit(deps, SERVICE, { debitId: debitId })).toEqual({ balance: 5 });
    expect((await getCredits(deps, SERVICE, { userId: userId })).credits).toBe(5);
    const kinds = (await stores.ledger.entries(userId)).map((entry) => entry.kind);
    expect(kinds).toEqual(["grant", "debit", "refund"]);
  });

  it("keeps the balance right when debits and refunds race", async () => {
    const userId = await newUser(12);
    const [a, b, c] = replicas(3);
    const first = await Promise.all(Array.from({ length: 6 }, (_, i) => debitOf(userId, 2, "", i % 2 ? a : b)));
    await Promise.all([
      ...first.map((debit) => refundDebit(a!, SERVICE, { debitId: debit.debitId })),
      ...first.map((debit) => refundDebit(b!, SERVICE, { debitId: debit.debitId })),
      ...Array.from({ length: 3 }, () => debitOf(userId, 1, "", c).catch(() => undefined)),
    ]);
    const entries = await stores.ledger.entries(userId);
    const debited = entries.filter((entry) => entry.kind === "debit").reduce((sum, entry) => sum + entry.amount, 0);
    const refunded = entries.filter((entry) => entry.kind === "refund").reduce((sum, entry) => sum + entry.amount, 0);
    expect(refunded).toBe(12);
    expect((await getCredits(deps, SERVICE, { userId: userId })).credits).toBe(12 - debited + refunded);
  });

  it("returns the first debit for a repeated idempotency key, also under concurrency", async () => {
    const userId = await newUser(10);
    const key = randomUUID();
    const replicaDeps = replicas(3);
    const debits = await Promise.all(
      Array.from({ length: 6 }, (_, i) => debitOf(userId, 4, key, replicaDeps[i % replicaDeps.length])),
    );
    expect(new Set(debits.map((debit) => debit.debitId)).size).toBe(1);
    expect((await getCredits(deps, SERVICE, { userId: userId })).credits).toBe(6);
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
    // A paid plan brings its monthly credits (@crafter/plans MONTHLY_CREDITS) on the first read.
    const credits = 1 + MONTHLY_CREDITS.pro;
    expect(await getCredits(deps, SERVICE, { userId: paid })).toMatchObject({
      plan: "pro",
      isSubscribed: true,
      credits,
    });
    expect(await errorCode(debitOf(paid, credits + 1))).toBe("NOT_ENOUGH_CREDITS");
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
    expect(await getCredits(deps, SERVICE, { userId: userId })).toMatchObject({ credits: 0, expiresAt: null });
    expect(await errorCode(debitOf(userId, 1))).toBe("NEED_SUBSCRIPTION");
    const owner = await newUser(3);
    const { debitId } = await debitOf(owner, 1);
    expect(await errorCode(refundDebit(deps, asUser(userId), { debitId }))).toBe("NOT_FOUND");
    expect(await errorCode(refundDebit(deps, SERVICE, { debitId: randomUUID() }))).toBe("NOT_FOUND");
  });

  it("reads by the balance snapshot, and rebuilds a missing or stale one from the ledger", async () => {
    const userId = await newUser(10);
    await debitOf(userId, 3);
    const snapshot = () => database.connection.collection("balances").findOne({ _id: userId as never });
    expect(await snapshot()).toMatchObject({ seq: 2, grants: [expect.objectContaining({ remaining: 7 })] });
    // A writer that crashed after its entry (or a slower replica's write) leaves it behind.
    await database.connection
      .collection("balances")
      .updateOne({ _id: userId as never }, { $set: { seq: 1, grants: [] } });
    expect((await getCredits(deps, SERVICE, { userId })).credits).toBe(7);
    expect(await snapshot()).toMatchObject({ seq: 2 });
    await database.connection.collection("balances").deleteOne({ _id: userId as never });
    expect((await debitOf(userId, 2)).balance).toBe(5);
    expect((await getCredits(deps, SERVICE, { userId })).credits).toBe(5);
    expect(await snapshot()).toMatchObject({ seq: 3 });
  });

  it("lets a user read and spend only their own credits", async () => {
    const alice = await newUser(5);
    const bob = await newUser(5);
    expect((await getCredits(deps, asUser(alice), { userId: "" })).credits).toBe(5);
    expect(await errorCode(getCredits(deps, asUser(alice), { userId: bob }))).toBe("FORBIDDEN");
    expect(await errorCode(getCredits(deps, SERVICE, { userId: "" }))).toBe("UNAUTHENTICATED");
    expect(
      await errorCode(
        debitOf(bob, 1, "", deps).then(() =>
          debitCredits(deps, asUser(alice), { userId: bob, amount: 1, reason: "", craftId: "", idempotencyKey: "" }),
        ),
      ),
    ).toBe("FORBIDDEN");
  });
});
