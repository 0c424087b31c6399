// The contact repository (store/contact.repository.ts) on the real database and Redis: an import's
// batch of updates that fails part way (a duplicate email, refused by the unique (user, project,
// email) index) leaves the updates that went in readable through the project's snapshot.
import { createLogger, type Redis } from "@crafter/kit";
import { throwawayDatabase, throwawayRedis } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { type ContactsStores, createStores } from "../src/store";
import type { StoredContact } from "../src/store/contact.repository";
import { contactDocument } from "./seeded-contacts";

jest.setTimeout(60_000);

const run = Date.now();
const logger = createLogger("contact-repository-test", "silent");
const scope = { userId: `user-${run}`, projectId: `project-${run}` };
let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let redis: Redis;
let dropRedis: () => Promise<void>;
let stores: ContactsStores;

const contact = (n: number, at: Date) =>
  contactDocument(scope, { firstName: `Ann${n}`, lastName: "Baker", email: `ann${n}@repo.test` }, at);

beforeAll(async () => {
  database = await throwawayDatabase("contact_repo");
  ({ redis, drop: dropRedis } = throwawayRedis("contact-repo"));
  stores = await createStores(database.connection, redis, logger);
});

afterAll(async () => {
  await database.drop();
  await dropRedis();
});

describe("updateMany", () => {
  it("when a slice fails part way, the next read of the project sees every update that went in", async () => {
    const created = new Date(Date.now() - 60_000);
    const docs = Array.from({ length: 12 }, (_, n) => contact(n, created));
    await stores.contacts.insertMany(scope, docs);
    // The project is read (built and held) before the batch, as during an import.
    expect((await stores.contacts.snapshot(scope)).entries.size).toBe(12);

    // Twelve updates, eight at a time: the second slice's first takes contact 0's email (a duplicate).
    const now = new Date();
    const updates = docs.map((doc, n) => {
      const set = n === 8 ? { email: docs[0]!.email, updatedOn: now } : { firstName: `Renamed${n}`, updatedOn: now };
      const { outbox: _outbox, ...stored } = doc;
      return { id: doc._id, set, events: [], after: { ...stored, ...set } as StoredContact };
    });
    // Written past the repository meanwhile (as a seed): only a rebuild from the database reads it.
    const seeded = contact(99, created);
    await stores.contacts.model.collection.insertOne(seeded as never);

    // FerretDB answers a duplicate on update with PostgreSQL's error (code 1), not 11000.
    await expect(stores.contacts.updateMany(scope, updates)).rejects.toThrow(/duplicate key/);

    const read = (await stores.contacts.snapshot(scope)).entries;
    const nameOf = (n: number) => read.get(docs[n]!._id)?.contact.firstName;
    // The first slice, and the second slice's updates beside the failed one.
    for (const n of [0, 1, 7, 9, 10, 11]) expect(nameOf(n)).toBe(`Renamed${n}`);
    expect(read.get(docs[8]!._id)?.contact).toMatchObject({ firstName: "Ann8", email: "ann8@repo.test" });
    expect(read.has(seeded._id)).toBe(true);
    const saved = await stores.contacts.get(scope, docs[11]!._id);
    expect(saved?.firstName).toBe("Renamed11");
  });
});
