// The contact snapshot (store/contact-snapshot.ts) on the real Redis, as two replicas of the contacts
// service see it: one builds a project from its "database" (a list here: the snapshot takes any
// source), writes on either are read on the other, a deleted contact stays deleted when a slower build
// meets it, a lost write makes the next read rebuild, and a replica that fell far behind reads whole.
import { createLogger, type Redis } from "@crafter/kit";
import { throwawayRedis } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import type { StoredContact } from "../src/store/contact.repository";
import { ContactSnapshots } from "../src/store/contact-snapshot";

jest.setTimeout(30_000);

const logger = createLogger("contact-snapshot-test", "silent");
const scope = { userId: "user-snap", projectId: "project-snap" };
let redis: Redis;
let dropRedis: () => Promise<void>;
let replicaA: ContactSnapshots;
let replicaB: ContactSnapshots;
let database: StoredContact[];
let reads = 0;

/** A contact as stored, with the search tokens documents written before they were dropped still carry. */
function contact(n: number, updatedOn = new Date("2026-03-01T10:00:00Z")): StoredContact {
  const stored: StoredContact & { searchTokens: string[] } = {
    _id: `c${n}`,
    ...scope,
    email: `person${n}@example.test`,
    firstName: `First${n}`,
    lastName: "Müller",
    phone: "",
    company: "ACME",
    customerKind: "business",
    contactType: "",
    tags: ["vip"],
    custom: { birthday: new Date("1990-12-10T00:00:00Z"), plan: "gold" },
    customerSince: new Date("2025-01-01T00:00:00Z"),
    updatedOn,
    source: "import",
    consent: "subscribed",
    interactionCounts: {},
    interactionCount: 0,
    searchTokens: ["first1"],
    facets: ["tags:vip"],
    createdAt: new Date("2025-01-01T00:00:00Z"),
  };
  return stored;
}

/** The database as a source: counts full reads. */
const source = () => {
  reads++;
  const rows = [...database];
  return (async function* () {
    yield* rows;
  })();
};
const ids = async (replica: ContactSnapshots) => [...(await replica.read(scope, source)).entries.keys()].sort();

beforeAll(() => {
  ({ redis, drop: dropRedis } = throwawayRedis("snapshot"));
  replicaA = new ContactSnapshots(redis, logger);
  replicaB = new ContactSnapshots(redis, logger);
  database = [1, 2, 3].map((n) => contact(n));
});

afterAll(() => dropRedis());

describe("contact snapshot", () => {
  it("builds a project once from the database and keeps every field but the search tokens", async () => {
    expect(await ids(replicaA)).toEqual(["c1", "c2", "c3"]);
    expect(await ids(replicaB)).toEqual(["c1", "c2", "c3"]);
    expect(reads).toBe(1);
    const { contact: c1, words } = (await replicaB.read(scope, source)).entries.get("c1")!;
    expect(c1.custom.birthday).toEqual(new Date("1990-12-10T00:00:00Z"));
    expect(c1.updatedOn).toEqual(new Date("2026-03-01T10:00:00Z"));
    expect(c1.facets).toEqual(["tags:vip"]);
    // Search tokens an old document still carries are not kept.
    expect("searchTokens" in c1).toBe(false);
    expect(words).toEqual(["first1", "muller", "acme", "person1", "example", "test"]);
  });

  it("shows a write on one replica to the other, and a deletion", async () => {
    const changed = { ...contact(2, new Date("2026-03-02T10:00:00Z")), company: "Bletchley" };
    await replicaA.put(scope, [changed, contact(4)]);
    await replicaA.drop(scope, ["c3"]);
    const seen = await replicaB.read(scope, source);
    expect([...seen.entries.keys()].sort()).toEqual(["c1", "c2", "c4"]);
    expect(seen.entries.get("c2")!.contact.company).toBe("Bletchley");
    expect(reads).toBe(1);
  });

  it("never lets an older copy replace a newer one, nor bring back a deleted contact", async () => {
    // A build that read c2 before its last save, and c4 before it was deleted, finishes late.
    await replicaB.drop(scope, ["c4"], new Date("2026-03-05T00:00:00Z"));
    await replicaA.put(scope, [contact(2, new Date("2026-03-01T10:00:00Z")), contact(4)]);
    const seen = await replicaA.read(scope, source);
    expect(seen.entries.get("c2")!.contact.company).toBe("Bletchley");
    expect(seen.entries.has("c4")).toBe(false);
  });

  it("rebuilds from the database after a lost write, dropping what the database no longer has", async () => {
    // c2 was deleted and c7 added while Redis was away.
    database = [contact(1), contact(7)];
    await replicaA.invalidate(scope);
    expect(await ids(replicaB)).toEqual(["c1", "c7"]);
    expect(await ids(replicaA)).toEqual(["c1", "c7"]);
    // Only the live contacts are left in Redis (the tombstones went too).
    expect((await redis.hkeys("contacts:facts:user-snap:project-snap")).sort()).toEqual(["c1", "c7"]);
    expect(reads).toBe(2);
  });

  it("reads whole again on a replica that fell more than 2,000 changes behind", async () => {
    const before = (await replicaB.read(scope, source)).version;
    const many = Array.from({ length: 2_100 }, (_, i) => contact(100 + i, new Date("2026-04-01T00:00:00Z")));
    for (let at = 0; at < many.length; at += 500) await replicaA.put(scope, many.slice(at, at + 500));
    const seen = await replicaB.read(scope, source);
    expect(seen.entries.size).toBe(2 + 2_100);
    expect(seen.version).toBeGreaterThan(before);
    expect(reads).toBe(2);
  });

  it("serves many reads at once from one refresh", async () => {
    await replicaA.put(scope, [contact(9)]);
    const all = await Promise.all(Array.from({ length: 20 }, () => replicaB.read(scope, source)));
    expect(new Set(all).size).toBe(1);
    expect(all[0]!.entries.has("c9")).toBe(true);
  });

  it("keeps a contact inserted while a build was reading", async () => {
    await replicaA.invalidate(scope);
    const during = async function* () {
      yield contact(1);
      // Saved by the other replica after the build's cursor went past where it will be.
      await replicaB.put(scope, [contact(8)]);
      yield contact(7);
    };
    const seen = await replicaA.read(scope, () => during());
    expect([...seen.entries.keys()].sort()).toEqual(["c1", "c7", "c8"]);
  });
});
