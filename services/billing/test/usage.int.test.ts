import { randomUUID } from "node:crypto";
import { fromBinary } from "@bufbuild/protobuf";
import { createLogger, createServiceClient, describeError } from "@crafter/kit";
import { stackEnv, stackServiceCredentials, throwawayDatabase, verifiedRpcUser } from "@crafter/kit/testing";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import { LimitReachedSchema } from "@crafter/proto/crafter/events/v1/billing_pb";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import type { BillingDeps } from "../src/deps";
import type { Caller } from "../src/domain/caller";
import { type BillingStores, createStores } from "../src/store";
import { KeyedQueue } from "../src/store/keyed-queue";
import { getPlan } from "../src/usecases/get-plan";
import { releaseUsage } from "../src/usecases/release-usage";
import { reserveUsage } from "../src/usecases/reserve-usage";

// Plan limits and monthly usage counters (docs/second-half-contract.md), against the real
// MongoDB-compatible server of scripts/infra in a throwaway database, then through the stack's RPC.
jest.setTimeout(120_000);
let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let stores: BillingStores;
let deps: BillingDeps;

beforeAll(async () => {
  database = await throwawayDatabase("billing_usage");
  stores = await createStores(database.connection);
  deps = {
    stores,
    writers: new KeyedQueue(),
    creditsTopic: "inttest.billing.credits.v1",
    usageTopic: "inttest.billing.usage.v1",
    kick: () => {},
    logger: createLogger("billing-usage-test", "silent"),
    now: () => new Date(),
    freeTier: { credits: 100, days: 30 },
  };
});
afterAll(async () => database?.drop());

const MEDIA: Caller = {
  userId: "",
  role: "service",
  token: undefined,
  signal: new AbortController().signal,
  service: "media",
};
const reserve = (userId: string, amount: number, key: string, on = deps) =>
  reserveUsage(on, MEDIA, { userId, counter: "ai_images", amount, key });
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "resolved",
    (error) => describeError(error).code,
  );

describe("plans and usage (use cases on the real database)", () => {
  it("puts a user without a subscription on free, and a live Core subscription on Core's limits", async () => {
    const free = randomUUID();
    expect(await getPlan(deps, MEDIA, { userId: free })).toMatchObject({
      tier: "free",
      planKey: "",
      status: "none",
      limits: { profiles: 250, emails: 500, ai_images: 20, voice_minutes: 5 },
    });
    const core = randomUUID();
    await stores.subscriptions.setPlan(core, "core", { planKey: "CoreMonthly_v1", status: "active" });
    expect(await getPlan(deps, MEDIA, { userId: core })).toMatchObject({
      tier: "core",
      planKey: "CoreMonthly_v1",
      limits: { profiles: 1000, emails: 4000, ai_images: 200, voice_minutes: 20 },
    });
    await stores.subscriptions.setPlan(core, "core", { status: "canceled" });
    expect((await getPlan(deps, MEDIA, { userId: core })).tier).toBe("free");
  });

  it("reserves all or nothing up to the limit, once per key, and refuses with the tier's scenario", async () => {
    const userId = randomUUID();
    expect(await reserve(userId, 15, "a")).toEqual({ used: 15, limit: 20, tier: "free" });
    // A retry of the same work reserves nothing more and answers the same.
    expect(await reserve(userId, 15, "a")).toEqual({ used: 15, limit: 20, tier: "free" });
    expect(await codeOf(reserve(userId, 6, "b"))).toBe("FREE_USER_LIMIT");
    expect(await reserve(userId, 5, "c")).toEqual({ used: 20, limit: 20, tier: "free" });
    expect((await getPlan(deps, MEDIA, { userId })).used.ai_images).toBe(20);

    const core = randomUUID();
    await stores.subscriptions.setPlan(core, "core", { planKey: "CoreYearly_v1", status: "active" });
    await reserve(core, 200, "batch");
    expect(await codeOf(reserve(core, 1, "one-more"))).toBe("CORE_AI_IMAGES_LIMIT");
  });

  it("never lets concurrent reservations from several replicas pass the limit", async () => {
    const userId = randomUUID();
    const replicas = Array.from({ length: 4 }, () => ({ ...deps, writers: new KeyedQueue() }));
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => codeOf(reserve(userId, 3, `k${i}`, replicas[i % replicas.length]))),
    );
    // 20 / 3 → six reservations fit; the rest are refused, whatever the interleaving.
    expect(outcomes.filter((o) => o === "resolved")).toHaveLength(6);
    expect(outcomes.filter((o) => o === "FREE_USER_LIMIT")).toHaveLength(6);
    expect((await getPlan(deps, MEDIA, { userId })).used.ai_images).toBe(18);
  });

  it("gives a failed piece of work's reservation back exactly once", async () => {
    const userId = randomUUID();
    await reserve(userId, 20, "gen-1");
    expect(await codeOf(reserve(userId, 1, "gen-2"))).toBe("FREE_USER_LIMIT");
    const releases = await Promise.all(
      [1, 2, 3].map(() => releaseUsage(deps, MEDIA, { userId, counter: "ai_images", key: "gen-1" })),
    );
    expect(releases.map((r) => r.used)).toContain(0);
    expect((await getPlan(deps, MEDIA, { userId })).used.ai_images).toBe(0);
    expect(await releaseUsage(deps, MEDIA, { userId, counter: "ai_images", key: "unknown" })).toEqual({ used: 0 });
    expect(await reserve(userId, 1, "gen-2")).toMatchObject({ used: 1 });
  });

  it("stores one LimitReached per user, counter and month, with the upgrade scenario", async () => {
    const userId = randomUUID();
    await reserve(userId, 20, "all");
    await codeOf(reserve(userId, 1, "x"));
    await codeOf(reserve(userId, 1, "y"));
    const docs = await stores.usage.limits.find({ userId }).lean();
    expect(docs).toHaveLength(1);
    const event = fromBinary(LimitReachedSchema, new Uint8Array((docs[0] as any).outbox[0].payload.buffer));
    expect(event).toMatchObject({ userId, counter: "ai_images", tier: "free", limit: 20, scenario: "FREE_USER_LIMIT" });
  });

  it("refuses bad counters, amounts and keys with field errors", async () => {
    const userId = randomUUID();
    expect(await codeOf(reserveUsage(deps, MEDIA, { userId, counter: "profiles", amount: 1, key: "k" }))).toBe(
      "CR_ERR_BAD_REQUEST",
    );
    expect(await codeOf(reserve(userId, 0, "k"))).toBe("CR_ERR_BAD_REQUEST");
    expect(await codeOf(reserve(userId, 1, ""))).toBe("CR_ERR_BAD_REQUEST");
  });
});

describe("plans and usage through billing's RPC on the stack", () => {
  const url = () => stackEnv().BILLING_URL!;
  const billing = () => createServiceClient(BillingService, url(), { timeoutMs: 30_000 });
  const asService = (name: string) =>
    createServiceClient(BillingService, url(), {
      timeoutMs: 30_000,
      as: "service",
      credentials: stackServiceCredentials(name),
    });

  it("answers a user's own plan, lets media reserve for a user, and refuses a user reserving", async () => {
    const user = await verifiedRpcUser("usage");
    const plan = await billing().getPlan({}, { headers: user.headers });
    expect(plan).toMatchObject({ tier: "free", limits: { profiles: 250, emails: 500, aiImages: 20, voiceMinutes: 5 } });

    const media = asService("media");
    expect(
      await media.reserveUsage({ userId: user.userId, counter: "ai_images", amount: 2, key: "rpc-1" }),
    ).toMatchObject({
      used: 2,
      limit: 20,
      tier: "free",
    });
    const refused = await billing()
      .reserveUsage({ userId: user.userId, counter: "ai_images", amount: 1, key: "self" }, { headers: user.headers })
      .then(
        () => "resolved",
        (error) => describeError(error).code,
      );
    expect(refused).toBe("FORBIDDEN");
    const over = await media.reserveUsage({ userId: user.userId, counter: "ai_images", amount: 19, key: "rpc-2" }).then(
      () => "resolved",
      (error) => `${describeError(error).status} ${describeError(error).code}`,
    );
    expect(over).toBe("402 FREE_USER_LIMIT");
  });
});
