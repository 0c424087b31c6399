// The billing service for real: auth, account, gateway and billing of a running stack
// (scripts/stack.mjs; addresses from the environment or .data/*.env), FerretDB and Kafka behind.
import { randomUUID } from "node:crypto";
import { fromBinary } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { createKafka, createLogger, createServiceClient, describeError, TOPICS, topicName } from "@crafter/kit";
import {
  GatewaySession,
  linkFrom,
  stackEnv,
  stackServiceCredentials,
  uniqueEmail,
  waitForEmail,
} from "@crafter/kit/testing";
import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import { type CreditsChanged, CreditsChangedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import { afterAll, describe, expect, it, jest } from "@jest/globals";
import { createBillingCredits } from "../../workflows/src/clients/billing";

const env = stackEnv();
const namespace = env.CRAFTER_NAMESPACE ?? "crafter";
const timeoutMs = 30_000;
const billingUrl = env.BILLING_URL ?? "http://127.0.0.1:50056";
const auth = createServiceClient(AuthService, env.AUTH_URL ?? "http://127.0.0.1:50051", { timeoutMs });
const billing = createServiceClient(BillingService, billingUrl, { timeoutMs });
// Debit and Refund are for the workflows service only (billing/src/rpc/access.ts).
const workflows = stackServiceCredentials("workflows");
const asWorkflows = createServiceClient(BillingService, billingUrl, {
  timeoutMs,
  as: "service",
  credentials: workflows,
});
const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const DAY = 86_400_000;
// The machine may be shared and slow; no test here measures speed.
jest.setTimeout(180_000);

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return describeError(error).code;
  }
  return "resolved";
}

/** Polls until `read` returns what `done` accepts; the free grant arrives through Kafka. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 150 && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
}

/** A new user signed up over RPC, once billing granted their free credits: token and user id. */
async function newUser(): Promise<{ token: string; userId: string }> {
  const email = uniqueEmail("billing");
  await auth.signUp({ email, password: "correct horse battery", displayName: "Billing Tester" });
  // Services refuse unverified users: verify from the mail first.
  const link = linkFrom(await waitForEmail(email, "Verify your email"), "/verify");
  await auth.verifyEmail({ token: link.searchParams.get("token")! });
  const { session } = await auth.signIn({ email, password: "correct horse battery", ip: "127.0.0.1" });
  const token = session!.accessToken;
  const userId = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).sub as string;
  const credits = await eventually(
    () => billing.getCredits({}, as(token)),
    (response) => response.credits > 0,
  );
  expect(credits.credits).toBe(100);
  return { token, userId };
}

describe("billing through the gateway", () => {
  it("gives a new user 100 credits expiring in 30 days in /api/user/account and /api/app/initial", async () => {
    const session = new GatewaySession();
    const email = uniqueEmail("billing-gw");
    const signedUpAt = Date.now();
    await session.post("/auth/signup", { email, password: "password-123" });
    const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
    await session.post("/auth/verify", { token });
    expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);

    const account = await eventually(
      () => session.get("/api/user/account"),
      (response) => response.body.result?.credits === 100,
    );
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ success: true, result: { credits: 100, isSubscribed: false } });
    const expiresAt = Date.parse(account.body.result.credits_expire_at);
    expect(expiresAt).toBeGreaterThanOrEqual(signedUpAt + 30 * DAY - 60_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * DAY);

    const initial = await session.get("/api/app/initial");
    expect(initial.body.result.userInfo).toMatchObject({
      credits: 100,
      credits_expire_at: account.body.result.credits_expire_at,
      isSubscribed: false,
      display_name: "Crafter",
    });
  });
});

describe("the gateway's cached reads", () => {
  it("show credits lower right after a debit, and a settings change right after it", async () => {
    const session = new GatewaySession();
    const email = uniqueEmail("billing-cache");
    await session.post("/auth/signup", { email, password: "password-123" });
    // /api refuses unverified users: verify from the mail first.
    const link = linkFrom(await waitForEmail(email, "Verify your email"), "/verify");
    await session.post("/auth/verify", { token: link.searchParams.get("token")! });
    expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
    const token = session.cookies.get("crafter_at")!;
    const userId = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).sub as string;
    // Twice, so the second read comes from the gateway's cache.
    for (let i = 0; i < 2; i++) {
      expect((await session.get("/api/user/account")).body.result.credits).toBe(100);
      expect((await session.get("/api/app/initial")).body.result.userInfo.credits).toBe(100);
    }
    for (const amount of [3, 4]) {
      // Only the workflows service may debit; it names the user (the access token's subject).
      const { balance } = await asWorkflows.debit({
        userId,
        amount,
        reason: "cache",
        craftId: "c",
        idempotencyKey: "",
      });
      expect((await session.get("/api/user/account")).body.result.credits).toBe(balance);
      expect((await session.get("/api/app/initial")).body.result.userInfo.credits).toBe(balance);
    }
    expect((await session.get("/api/user/account")).body.result.credits).toBe(93);
    expect((await session.put("/api/userSettings/settings", { theme: "dark" })).status).toBe(200);
    expect((await session.get("/api/app/initial")).body.result.userSettings.settings).toMatchObject({ theme: "dark" });
  });
});

describe("BillingService over RPC", () => {
  it("reads, debits and refunds the caller's credits", async () => {
    const { token, userId } = await newUser();
    const before = await billing.getCredits({}, as(token));
    expect(before).toMatchObject({ credits: 100, plan: "free", isSubscribed: false });
    expect(timestampDate(before.expiresAt!).getTime()).toBeGreaterThan(Date.now() + 29 * DAY);

    // A service call names the user and carries its service token.
    const debit = await asWorkflows.debit({ userId, amount: 7, reason: "test", craftId: "c1", idempotencyKey: "k1" });
    expect(debit.balance).toBe(93);
    const again = await asWorkflows.debit({ userId, amount: 7, reason: "test", craftId: "c1", idempotencyKey: "k1" });
    expect(again).toMatchObject({ debitId: debit.debitId, balance: 93 });
    expect((await billing.getCredits({}, as(token))).credits).toBe(93);

    expect((await asWorkflows.refund({ debitId: debit.debitId })).balance).toBe(100);
    expect((await asWorkflows.refund({ debitId: debit.debitId })).balance).toBe(100);
    expect((await billing.getCredits({}, as(token))).credits).toBe(100);
  });

  it("refuses to act on another user, or on nobody", async () => {
    const alice = await newUser();
    const bob = await newUser();
    expect(await codeOf(billing.getCredits({ userId: bob.userId }, as(alice.token)))).toBe("FORBIDDEN");
    expect(await codeOf(billing.debit({ amount: 1, userId: bob.userId }, as(alice.token)))).toBe("FORBIDDEN");
    expect(await codeOf(billing.getCredits({}))).toBe("UNAUTHENTICATED");
    const bobs = await asWorkflows.debit({ amount: 1, userId: bob.userId });
    // A user may not refund at all, even their own debits.
    expect(await codeOf(billing.refund({ debitId: bobs.debitId }, as(alice.token)))).toBe("FORBIDDEN");
    expect(await codeOf(billing.refund({ debitId: bobs.debitId }, as(bob.token)))).toBe("FORBIDDEN");
    expect(await codeOf(asWorkflows.debit({ amount: -1, userId: alice.userId }))).toBe("CR_ERR_BAD_REQUEST");
    expect(await codeOf(billing.getCredits({}, as("not-a-jwt")))).toBe("UNAUTHENTICATED");
  });

  it("lets exactly 10 of 16 concurrent debits of 10 through on 100 credits, then asks to subscribe", async () => {
    const { token, userId } = await newUser();
    // The 16 debits of one user queue in billing; on a loaded machine that can take a while.
    const credits = createBillingCredits(billingUrl, 150_000, workflows);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) =>
        credits.debit({ userId, amount: 10, reason: "concurrency", craftId: "c", idempotencyKey: `k${i}` }),
      ),
    );
    const debits = outcomes.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
    const failures = outcomes.flatMap((outcome) =>
      outcome.status === "rejected" ? [describeError(outcome.reason)] : [],
    );
    expect(debits).toHaveLength(10);
    expect(failures.map((failure) => [failure.code, failure.status])).toEqual(
      Array.from({ length: 6 }, () => ["NEED_SUBSCRIPTION", 402]),
    );
    expect((await billing.getCredits({}, as(token))).credits).toBe(0);

    // A failed piece of work refunds exactly once, however often and concurrently refund is called.
    const [first] = debits;
    await Promise.all([credits.refund(first!.debitId), credits.refund(first!.debitId), credits.refund(first!.debitId)]);
    await credits.refund(first!.debitId);
    expect((await billing.getCredits({}, as(token))).credits).toBe(10);
    expect(await codeOf(credits.refund(randomUUID()))).toBe("NOT_FOUND");
  });

  describe("events", () => {
    const kafka = createKafka(
      env.KAFKA_BROKERS ?? "127.0.0.1:9092",
      `billing-test-${randomUUID()}`,
      createLogger("test", "warn"),
    );
    const consumer = kafka.consumer(`billing-test-${randomUUID()}`);
    afterAll(() => consumer.close(true));

    it("publishes CreditsChanged for the grant, a debit and its refund", async () => {
      const { userId } = await newUser();
      const { debitId } = await asWorkflows.debit({ userId, amount: 3, reason: "events" });
      await asWorkflows.refund({ debitId });
      const seen: CreditsChanged[] = [];
      const stream = await consumer.consume({
        topics: [topicName(namespace, TOPICS.billingCredits)],
        mode: "earliest",
      });
      stream.on("data", (message) => {
        if (message.key !== userId) return;
        if (message.headers.get("ce_type") !== CreditsChangedSchema.typeName) return;
        seen.push(fromBinary(CreditsChangedSchema, message.value));
      });
      for (let i = 0; i < 150 && seen.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 200));
      seen.sort((a, b) => a.seq - b.seq);
      expect(seen.map(({ seq, kind, delta, balance }) => ({ seq, kind, delta, balance }))).toEqual([
        { seq: 1, kind: "grant", delta: 100, balance: 100 },
        { seq: 2, kind: "debit", delta: -3, balance: 97 },
        { seq: 3, kind: "refund", delta: 3, balance: 100 },
      ]);
      expect(seen[1]!.entryId).toBe(debitId);
    });
  });
});
