import { throwawayDatabase } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { UserRepository } from "../src/store/user.repository";

// Unverified accounts expire: FerretDB has no TTL index, so the auth sweeper removes them.

jest.setTimeout(60_000);

let db: Awaited<ReturnType<typeof throwawayDatabase>>;
let users: UserRepository;
const HOUR = 3600_000;
const now = new Date();

beforeAll(async () => {
  db = await throwawayDatabase("auth_sweep");
  users = new UserRepository(db.connection);
  await users.model.init();
});

afterAll(async () => {
  await db.drop();
});

const base = (id: string, extra: Record<string, unknown>) => ({
  _id: id,
  email: `${id}@example.test`,
  passwordHash: "x",
  clientId: id,
  outbox: [],
  ...extra,
});

describe("the unverified-account sweeper", () => {
  it("removes expired unverified accounts and old ones from before expiries, and nothing else", async () => {
    await users.model.insertMany([
      base("expired", { emailVerified: false, expiresAt: new Date(now.getTime() - 1000) }),
      base("fresh", { emailVerified: false, expiresAt: new Date(now.getTime() + HOUR) }),
      base("verified-old", { emailVerified: true, createdAt: new Date(now.getTime() - 100 * HOUR) }),
    ]);
    // Written before accounts had an expiry: no expiresAt field at all.
    await users.model.collection.insertMany([
      base("legacy-old", { emailVerified: false, createdAt: new Date(now.getTime() - 100 * HOUR) }),
      base("legacy-new", { emailVerified: false, createdAt: new Date(now.getTime() - HOUR) }),
    ] as never[]);
    expect(await users.sweepExpired(now, 72 * HOUR)).toBe(2);
    const left = (await users.model.find().lean()).map((doc) => doc._id).sort();
    expect(left).toEqual(["fresh", "legacy-new", "verified-old"]);
  });

  it("deleteExpired removes only an unverified account past its expiry", async () => {
    await users.model.insertMany([
      base("gone", { emailVerified: false, expiresAt: new Date(now.getTime() - 1000) }),
      base("kept", { emailVerified: false, expiresAt: new Date(now.getTime() + HOUR) }),
    ]);
    expect(await users.deleteExpired("gone", now)).toBe(true);
    expect(await users.deleteExpired("kept", now)).toBe(false);
    expect(await users.findById("kept")).not.toBeNull();
  });
});
