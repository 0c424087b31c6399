import { randomUUID } from "node:crypto";
import { parseKeyRing } from "@crafter/kit";
import { throwawayDatabase } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { ConnectionEvents } from "../src/events/publishers";
import { type AccountStores, createStores } from "../src/store";

// The connections store against the real MongoDB-compatible server (FerretDB 1.24 locally), in a
// throwaway database: tokens are stored sealed, a connect attempt is used once among concurrent
// callbacks, reconnecting keeps an unpublished event.
let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let stores: AccountStores;
const keys = parseKeyRing(`k1:${Buffer.alloc(32, 3).toString("base64")}`);

beforeAll(async () => {
  database = await throwawayDatabase("account_connections");
  stores = await createStores(database.connection, { keys });
});

afterAll(async () => {
  await database?.drop();
});

const tokens = {
  accessToken: "at-plain-secret",
  refreshToken: "rt-plain-secret",
  expiresAt: new Date(Date.now() + 3_600_000),
};

describe("connections store", () => {
  it("keeps tokens sealed at rest, opened only for their own connection", async () => {
    const projectId = randomUUID();
    const doc = await stores.connections.connect({
      projectId,
      ownerUserId: "owner-1",
      connectedBy: "owner-1",
      provider: "google",
      remoteAccountId: "g-1",
      remoteAccountName: "owner@example.test",
      scopes: ["openid"],
      tokens,
      at: new Date(),
    });
    const raw = await database.connection.collection("connections").findOne({ _id: doc._id as never });
    expect(JSON.stringify(raw)).not.toContain("plain-secret");
    expect(String(raw?.accessSealed)).toMatch(/^v2\.k1\./);
    const stored = await stores.connections.get(projectId, "google");
    expect(stores.connections.open(stored!)).toMatchObject({
      accessToken: "at-plain-secret",
      refreshToken: "rt-plain-secret",
    });
    // A sealed token copied onto another connection does not open there.
    const other = { ...stored!, _id: `${randomUUID()}:google` };
    expect(() => stores.connections.open(other)).toThrow();
  });

  it("uses a connect attempt once among concurrent callbacks, and never after it expired", async () => {
    const nonce = randomUUID();
    await stores.connections.startAttempt(nonce, "verifier-1", "owner-1", new Date(Date.now() + 60_000));
    const results = await Promise.all(
      Array.from({ length: 8 }, () => stores.connections.useAttempt(nonce, new Date())),
    );
    expect(results.filter((result) => result !== null)).toEqual([
      { verifier: "verifier-1", connectedBy: "owner-1", shop: "" },
    ]);
    const late = randomUUID();
    await stores.connections.startAttempt(late, "verifier-2", "owner-1", new Date(Date.now() - 1));
    expect(await stores.connections.useAttempt(late, new Date())).toBeNull();
  });

  it("marks needs_reconnecting with its event in the same update; reconnecting keeps the unpublished event", async () => {
    const projectId = randomUUID();
    const input = {
      projectId,
      ownerUserId: "owner-2",
      connectedBy: "owner-2",
      provider: "google" as const,
      remoteAccountId: "g-2",
      remoteAccountName: "b@example.test",
      scopes: ["openid"],
      tokens,
      at: new Date(),
    };
    const doc = await stores.connections.connect(input);
    const event = new ConnectionEvents("crafter_test").needsReconnecting({
      connectionId: doc._id,
      projectId,
      ownerUserId: "owner-2",
      provider: "google",
      providerTitle: "Google",
      lastError: "invalid_grant",
      connectedAt: doc.connectedAt,
    });
    await stores.connections.needsReconnecting(doc, "invalid_grant", event);
    const marked = await database.connection.collection("connections").findOne({ _id: doc._id as never });
    expect(marked).toMatchObject({ state: "needs_reconnecting", lastError: "invalid_grant" });
    expect(marked?.outbox).toHaveLength(1);
    await stores.connections.connect({ ...input, at: new Date() });
    const again = await database.connection.collection("connections").findOne({ _id: doc._id as never });
    expect(again).toMatchObject({ state: "connected", lastError: "" });
    expect(again?.outbox).toHaveLength(1);
  });
});
