// The date-token backfill on the real FerretDB: contacts stored before month-day facets existed
// (inserted here as raw documents, as an old service wrote them) are found by the automations'
// date lookup (contactsByDate, ListContactsByDate's use case) once the backfill ran; it is safe
// twice at once and again, and the test stack's contacts service ran it at start-up (its done-marker).
import { createLogger, createRedis } from "@crafter/kit";
import { stackEnv, throwawayDatabase } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import mongoose from "mongoose";
import type { ContactsDeps } from "../src/deps";
import { createStores } from "../src/store";
import { backfillDateTokens, DATE_TOKENS_BACKFILL } from "../src/usecases/date-tokens";
import { contactsByDate } from "../src/usecases/segments";

jest.setTimeout(30_000);

const env = stackEnv();
const logger = createLogger("date-tokens-test", "silent");
const scope = { userId: "user-old", projectId: "project-old" };
let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let redis: ReturnType<typeof createRedis>;
let deps: Pick<ContactsDeps, "stores" | "logger" | "now">;

/** A contact document as the service stored it before month-day facets: other facets only. */
function oldContact(id: string, dates: { birthday?: string; customerSince?: string }) {
  const savedAt = new Date("2026-01-05T10:00:00Z");
  return {
    _id: id,
    ...scope,
    email: `${id}@example.test`,
    firstName: id,
    lastName: "",
    phone: "",
    company: "",
    customerKind: "",
    contactType: "",
    tags: ["old"],
    custom: dates.birthday ? { birthday: new Date(dates.birthday) } : {},
    ...(dates.customerSince ? { customerSince: new Date(dates.customerSince) } : {}),
    updatedOn: savedAt,
    source: "manual",
    consent: "subscribed",
    consentAt: savedAt,
    interactionCounts: {},
    interactionCount: 0,
    facets: ["tags:old", "consent:subscribed"],
    outbox: [],
    createdAt: savedAt,
  };
}

const byDate = async (field: string, monthDays: string[]) =>
  (await contactsByDate(deps, scope, { field, monthDays, after: "", limit: 100 })).contacts.map((c) => c.contactId);

beforeAll(async () => {
  database = await throwawayDatabase("contacts_backfill");
  redis = createRedis(env.REDIS_URL ?? "redis://127.0.0.1:6379", `inttest-backfill-${Date.now()}`, logger);
  deps = { stores: await createStores(database.connection, redis, logger), logger, now: () => new Date() };
  await deps.stores.settings.model.collection.insertOne({
    _id: `${scope.userId}:${scope.projectId}`,
    customFields: [{ key: "birthday", label: "Birthday", type: "date" }],
    interactionTypes: [],
    contactTypes: [],
    updatedAt: new Date(),
  } as never);
  await deps.stores.contacts.model.collection.insertMany([
    oldContact("c1-ada", { birthday: "1990-12-10T00:00:00Z", customerSince: "2020-05-01T00:00:00Z" }),
    oldContact("c2-bob", {}),
    oldContact("c3-cy", { birthday: "1985-12-10T00:00:00Z" }),
    oldContact("c4-dee", { birthday: "1992-02-29T00:00:00Z" }),
    oldContact("c5-eve", { birthday: "1970-12-10T00:00:00Z" }),
  ] as never[]);
});

afterAll(async () => {
  await database?.drop();
  redis?.disconnect();
});

describe("date-token backfill", () => {
  it("gives old contacts their month-day facets, so the date lookup finds them; twice at once is harmless", async () => {
    expect(await byDate("custom.birthday", ["12-10"])).toEqual([]);
    // A save after the read wins: the contact is skipped (its save wrote its own facets).
    expect(await deps.stores.contacts.addFacets("c5-eve", new Date("2026-01-01T00:00:00Z"), ["x@md:01-01"])).toBe(
      false,
    );

    const [one, two] = await Promise.all([
      backfillDateTokens(deps, { batch: 2 }),
      backfillDateTokens(deps, { batch: 2 }),
    ]);
    // Both passes read everything (unless one ended before the other began); each of the four
    // contacts with dates got its facets from one pass or both ($addToSet adds them once).
    expect(one.alreadyDone).toBe(false);
    if (!two.alreadyDone) expect(two.scanned).toBe(5);
    expect(one.scanned).toBe(5);
    expect(one.updated + two.updated).toBeGreaterThanOrEqual(4);

    expect(await byDate("custom.birthday", ["12-10"])).toEqual(["c1-ada", "c3-cy", "c5-eve"]);
    expect(await byDate("custom.birthday", ["02-28", "02-29"])).toEqual(["c4-dee"]);
    expect(await byDate("customerSince", ["05-01"])).toEqual(["c1-ada"]);
    const ada = await deps.stores.contacts.get(scope, "c1-ada");
    expect(ada?.facets.sort()).toEqual(
      ["consent:subscribed", "custom.birthday@md:12-10", "customerSince@md:05-01", "tags:old"].sort(),
    );
    // Only the facets changed: the table's order (updatedOn) and the rest stay as they were.
    expect(ada?.updatedOn.toISOString()).toBe("2026-01-05T10:00:00.000Z");
    expect((await deps.stores.contacts.get(scope, "c2-bob"))?.facets).toEqual(["tags:old", "consent:subscribed"]);

    // Done once: the next start reads nothing.
    expect(await backfillDateTokens(deps, { batch: 2 })).toEqual({ scanned: 0, updated: 0, alreadyDone: true });
  });

  it("ran at the test stack's contacts service start-up (its done-marker)", async () => {
    const stack = await mongoose
      .createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", {
        dbName: `${env.CRAFTER_NAMESPACE}_contacts`,
      })
      .asPromise();
    try {
      const deadline = Date.now() + 15_000;
      let marker: unknown = null;
      while (!marker && Date.now() < deadline) {
        marker = await stack.collection("backfills").findOne({ _id: DATE_TOKENS_BACKFILL } as never);
        if (!marker) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(marker).not.toBeNull();
    } finally {
      await stack.close();
    }
  });
});
