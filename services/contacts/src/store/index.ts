import type { Connection, Model } from "mongoose";
import { type EntryDoc, EntryRepository, entryModel } from "./entry.repository";

/** Every repository of the contacts service, over its own database. */
export interface ContactsStores {
  entries: EntryRepository;
  /** Models whose documents carry an outbox (relayed to Kafka by the kit). */
  outbox: Model<EntryDoc>[];
}

/** Builds the repositories and waits until their indexes exist. */
export async function createStores(connection: Connection): Promise<ContactsStores> {
  const entries = entryModel(connection);
  await entries.init();
  return { entries: new EntryRepository(entries), outbox: [entries] };
}
