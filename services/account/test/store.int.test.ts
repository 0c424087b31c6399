import { randomUUID } from "node:crypto";
import { throwawayDatabase } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { defaultGlobalFlags } from "../src/domain/flags";
import { type AccountStores, createStores } from "../src/store";
import { FlagRepository, flagModel } from "../src/store/flag.repository";

// Against the real MongoDB-compatible server of scripts/infra (FerretDB 1.24 locally), in a
// throwaway database. These pin the concurrency guarantees the repositories rely on.
let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let stores: AccountStores;

beforeAll(async () => {
  database = await throwawayDatabase("account");
  stores = await createStores(database.connection);
});

afterAll(async () => {
  await database?.drop();
});

describe("account store", () => {
  it("creates an account once under concurrent ensure calls, with every default stored", async () => {
    const userId = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        stores.accounts.ensure(userId, { email: "a@example.test", displayName: "", role: "", emailVerified: false }),
      ),
    );
    expect(new Set(results.map((account) => account.id)).size).toBe(1);
    const raw = await database.connection.collection("accounts").find({ userId }).toArray();
    expect(raw).toHaveLength(1);
    expect(raw[0]).toMatchObject({ displayName: "Crafter", role: "owner", isSubscribed: false, access: [], image: "" });
  });

  it("marks the email verified, creating the account when needed", async () => {
    const userId = randomUUID();
    await stores.accounts.markEmailVerified(userId, "v@example.test");
    expect(await stores.accounts.findByUser(userId)).toMatchObject({ emailVerified: true, email: "v@example.test" });
  });

  it("keeps every key of concurrent settings updates", async () => {
    const userId = randomUUID();
    await Promise.all([
      stores.settings.apply(userId, { theme: "dark" }),
      stores.settings.apply(userId, { fastGeneration: true }),
      stores.settings.apply(userId, { leftSidebarOpen: false }),
      stores.settings.apply(userId, { viewMode: "grid" }),
      stores.settings.apply(userId, { customerProfileColumns: ["name"] }),
    ]);
    expect(await stores.settings.get(userId)).toEqual({
      theme: "dark",
      fastGeneration: true,
      leftSidebarOpen: false,
      viewMode: "grid",
      customerProfileColumns: ["name"],
    });
    expect(await stores.settings.get(randomUUID())).toEqual({});
  });

  it("seeds flags once and keeps an operator's change", async () => {
    expect(await stores.flags.seed(defaultGlobalFlags())).toBe(29);
    await database.connection.collection("flags").updateOne({ _id: "test" as never }, { $set: { enabled: true } });
    expect(await stores.flags.seed(defaultGlobalFlags())).toBe(0);
    const flags = await stores.flags.all();
    expect(flags).toHaveLength(29);
    expect(flags.find((flag) => flag.name === "test")?.enabled).toBe(true);
  });

  it("serves global flags from memory for cacheMs, then reads an operator's flip", async () => {
    let clock = 1_000_000;
    const cached = new FlagRepository(flagModel(database.connection), { cacheMs: 5000, now: () => clock });
    await cached.seed(defaultGlobalFlags());
    const before = (await cached.all()).find((flag) => flag.name === "dashboard_view")!.enabled;
    await database.connection
      .collection("flags")
      .updateOne({ _id: "dashboard_view" as never }, { $set: { enabled: !before } });
    clock += 4999;
    expect((await cached.all()).find((flag) => flag.name === "dashboard_view")?.enabled).toBe(before);
    clock += 1;
    expect((await cached.all()).find((flag) => flag.name === "dashboard_view")?.enabled).toBe(!before);
    await database.connection
      .collection("flags")
      .updateOne({ _id: "dashboard_view" as never }, { $set: { enabled: before } });
  });

  it("stores one override per user and flag", async () => {
    const userId = randomUUID();
    await stores.flagOverrides.set(userId, "image_edit", true);
    await stores.flagOverrides.set(userId, "image_edit", false);
    expect(await stores.flagOverrides.listForUser(userId)).toEqual([{ flag: "image_edit", enabled: false }]);
  });
});

describe("account migration to _id = userId", () => {
  it("moves accounts stored under random ids to their user id, once, keeping their fields", async () => {
    const legacy = await throwawayDatabase("account_migration");
    try {
      const accounts = legacy.connection.collection("accounts");
      await accounts.createIndex({ userId: 1 }, { unique: true });
      const users = [randomUUID(), randomUUID()];
      await accounts.insertMany(
        users.map((userId) => ({
          _id: randomUUID() as never,
          userId,
          email: `${userId}@example.test`,
          displayName: "Old",
          image: "",
          isSubscribed: false,
          access: ["a"],
          role: "admin",
          emailVerified: true,
        })),
      );
      const migrated = await createStores(legacy.connection);
      for (const userId of users) {
        expect(await migrated.accounts.findByUser(userId)).toMatchObject({
          id: userId,
          displayName: "Old",
          role: "admin",
          access: ["a"],
        });
      }
      expect(await accounts.countDocuments({})).toBe(2);
      // A second start finds the marker and changes nothing.
      await createStores(legacy.connection);
      expect(await accounts.countDocuments({})).toBe(2);
    } finally {
      await legacy.drop();
    }
  });
});
