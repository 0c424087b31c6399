import type { ContactsDeps } from "../deps";
import { missingMonthDayFacets } from "../domain/contact";
import type { CustomFieldDefinition } from "../domain/fields";
import type { StoredContact } from "../store/contact.repository";
import { stateOf } from "./contacts";
import { dropSearchTokens } from "./drop-search-tokens";
import { customDefinitions } from "./scope";

type Deps = Pick<ContactsDeps, "stores" | "logger" | "now">;

/** The date-token backfill's name (its done-marker in the `backfills` collection). */
export const DATE_TOKENS_BACKFILL = "date-tokens-v1";

export interface BackfillResult {
  /** Contacts read, and those that got facets. */
  scanned: number;
  updated: number;
  /** The pass was done before (its done-marker exists): nothing was read. */
  alreadyDone: boolean;
}

/**
 * Gives the contacts saved before month-day facets existed (`customerSince@md:05-01`…) the facets
 * their date fields call for, so the automations' date_field trigger (ListContactsByDate) finds them.
 * - One streamed pass over the database (not `_id`-ordered pages: ranges and sorts are not pushed
 *   down, docs/adr/0001, so each page would read the whole collection), handled `batch` contacts at a time.
 * - Writes only a contact that lacks a facet, only its `facets` ($addToSet), and only while the
 *   contact is still as read (`updatedOn`): a save in between wrote every facet itself. So running
 *   it twice, twice at once, or beside the service's own writes adds nothing more; a pass stopped
 *   half-way runs again whole, writing only what is still missing.
 * - Marks itself done at the end: once done, a call reads nothing.
 * @returns counts of the pass (`alreadyDone` when it was done before).
 * @throws the database's errors (no done-marker then: the next call runs again).
 */
export async function backfillDateTokens(
  deps: Deps,
  options: { name?: string; batch?: number } = {},
): Promise<BackfillResult> {
  const name = options.name ?? DATE_TOKENS_BACKFILL;
  const batch = options.batch ?? 200;
  const { contacts, backfills, settings } = deps.stores;
  if (await backfills.get(name)) return { scanned: 0, updated: 0, alreadyDone: true };
  let scanned = 0;
  let updated = 0;
  const handle = async (chunk: StoredContact[]) => {
    // A project's custom fields, read once per chunk.
    const fieldsOf = new Map<string, Promise<CustomFieldDefinition[]>>();
    for (const contact of chunk) {
      const key = `${contact.userId}:${contact.projectId}`;
      let fields = fieldsOf.get(key);
      if (!fields) {
        fields = settings.get(contact.userId, contact.projectId).then(customDefinitions);
        fieldsOf.set(key, fields);
      }
      const missing = missingMonthDayFacets({ ...stateOf(contact), facets: contact.facets }, await fields);
      if (missing.length > 0 && (await contacts.addFacets(contact._id, contact.updatedOn, missing))) updated++;
    }
    scanned += chunk.length;
  };
  let chunk: StoredContact[] = [];
  for await (const contact of contacts.streamAll(batch)) {
    chunk.push(contact);
    if (chunk.length >= batch) {
      await handle(chunk);
      chunk = [];
    }
  }
  await handle(chunk);
  await backfills.add(name, deps.now());
  return { scanned, updated, alreadyDone: false };
}

/**
 * Runs the backfill, then the search tokens' drop (drop-search-tokens.ts), in the background of a
 * starting service, again after `retryMs` when one fails, until both are done. @returns a function that stops the retries.
 */
export function startDateTokenBackfill(deps: Deps, retryMs = 60_000): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const run = () => {
    backfillDateTokens(deps)
      .then(async (result) => {
        if (!result.alreadyDone) deps.logger.info(result, "date tokens backfilled");
        const dropped = await dropSearchTokens(deps);
        if (dropped !== null) deps.logger.info({ dropped }, "search tokens dropped");
      })
      .catch((err) => {
        deps.logger.error({ err }, "contacts backfill failed; it runs again");
        if (!stopped) timer = setTimeout(run, retryMs).unref();
      });
  };
  timer = setTimeout(run, 1000).unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
