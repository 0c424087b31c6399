import type { ContactsDeps } from "../deps";

type Deps = Pick<ContactsDeps, "stores" | "logger" | "now">;

/** The pass's name (its done-marker in the `backfills` collection). */
export const DROP_SEARCH_TOKENS = "drop-search-tokens-v1";

/**
 * Drops what contacts stored for a database-side token search that nothing queries any more (search
 * reads the project's snapshot, store/contact-snapshot.ts): the `searchTokens_1` index (with its GIN
 * twin, scripts/infra) and the field. Every write of a contact rewrote both, a hundred tokens or so
 * each. One streamed pass (as the date-token backfill): each contact that still has the field loses
 * it, only while it is still as read (`updatedOn`), through the driver (the schema no longer knows
 * the field). Marked done at the end; run again after a failure, it does only what is left.
 * @returns contacts that lost the field, or null when the pass was done before.
 */
export async function dropSearchTokens(deps: Deps): Promise<number | null> {
  const { contacts, backfills } = deps.stores;
  if (await backfills.get(DROP_SEARCH_TOKENS)) return null;
  const collection = contacts.model.collection;
  const indexes = await collection.indexes();
  if (indexes.some((index) => index.name === "searchTokens_1")) await collection.dropIndex("searchTokens_1");
  let dropped = 0;
  for await (const contact of contacts.streamAll(200)) {
    if (!("searchTokens" in contact)) continue;
    const result = await collection.updateOne(
      { _id: contact._id as never, updatedOn: contact.updatedOn },
      { $unset: { searchTokens: "" } },
    );
    dropped += result.modifiedCount;
  }
  await backfills.add(DROP_SEARCH_TOKENS, deps.now());
  return dropped;
}
