import { createHash } from "node:crypto";
import { appError, badRequest, type Caller, isDuplicateKey } from "@crafter/kit";
import { limitScenario } from "../clients/plans";
import type { ContactsDeps } from "../deps";
import { type ContactFieldsInput, checkContactFields } from "../domain/contact";
import { csvLine } from "../domain/csv-out";
import { type ConsentStatus, fieldCatalogue } from "../domain/fields";
import { ImportCheck, type ImportCheckResult, type UnknownValues } from "../domain/import-check";
import { CONSENT_TARGETS, guessMapping } from "../domain/import-mapping";
import { type ImportedContact, readRow } from "../domain/import-row";
import { type CsvDelimiter, readCsv, sniffDelimiter } from "../import/csv";
import type { ContactDoc, Scope, StoredContact } from "../store/contact.repository";
import type { ImportCheckpointDoc, ImportDoc, ImportErrorDoc } from "../store/import.repository";
import type { Settings } from "../store/settings.repository";
import type { ConsentChangeDoc } from "../store/timeline.repository";
import { newContactDoc, type PlannedUpdate, planUpdate, stateOf } from "./contacts";
import { customDefinitions, scopeOf } from "./scope";

/** Largest CSV accepted: 20 MB (the contract's upload limit). */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;
/** Rows per batch: one checkpoint, one insertMany. */
export const BATCH_ROWS = 500;
const CHUNK_BYTES = 256 * 1024;

type Deps = Pick<ContactsDeps, "stores" | "events" | "kick" | "now" | "plans" | "logger" | "enqueueImport">;
type RunDeps = Omit<Deps, "enqueueImport">;

/** The spec's import state, derived from the import and its checkpoints. */
export interface ImportView {
  doc: ImportDoc;
  status: "uploaded" | "processing" | "done" | "failed";
  last: ImportCheckpointDoc | undefined;
  /** The first rows not imported (once the import ended). */
  errors: ImportErrorDoc[];
}

/** Rows not imported listed with the import's state; the CSV has them all. */
export const LISTED_ERRORS = 100;

async function* fromBuffer(data: Buffer) {
  yield data;
}

/**
 * Stores an uploaded CSV (in chunks), reads its header and first 5 rows, counts its rows and guesses
 * the mapping. @throws IMPORT_TOO_LARGE (over 20 MB), CR_ERR_BAD_REQUEST (empty, no header).
 */
export async function uploadImport(
  deps: Pick<ContactsDeps, "stores" | "now">,
  caller: Caller,
  input: { projectId: string; fileName: string; data: Buffer },
): Promise<ImportView> {
  const scope = scopeOf(caller, input.projectId);
  if (input.data.length > MAX_IMPORT_BYTES) throw appError("IMPORT_TOO_LARGE");
  if (input.data.length === 0) throw badRequest({ file: "The file is empty" });
  const sample = input.data.subarray(0, 64 * 1024).toString("utf8");
  const delimiter = sniffDelimiter(sample);
  let headers: string[] | undefined;
  const preview: string[][] = [];
  let rows = 0;
  for await (const record of readCsv(fromBuffer(input.data), delimiter, () => {})) {
    if (!headers) {
      headers = record.cells.map((h) => h.trim().slice(0, 200));
      continue;
    }
    rows++;
    if (preview.length < 5) preview.push(record.cells.map((c) => c.slice(0, 500)));
  }
  if (!headers || headers.every((h) => h === "")) throw badRequest({ file: "The file has no header row" });
  if (headers.length > 200) throw badRequest({ file: "The file has more than 200 columns" });
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const id = crypto.randomUUID();
  let chunks = 0;
  for (let at = 0; at < input.data.length; at += CHUNK_BYTES) {
    await deps.stores.imports.saveChunk(id, chunks++, input.data.subarray(at, at + CHUNK_BYTES));
  }
  const doc: ImportDoc = {
    _id: id,
    userId: scope.userId,
    projectId: scope.projectId,
    fileName: (input.fileName || "contacts.csv").slice(0, 200),
    size: input.data.length,
    chunks,
    delimiter,
    headers,
    preview: preview.map((cells) => ({ cells })),
    guessed: guessMapping(headers, customDefinitions(settings)),
    rowsTotal: rows,
    createdAt: deps.now(),
  };
  await deps.stores.imports.create(doc);
  return { doc, status: "uploaded", last: undefined, errors: [] };
}

async function viewOf(deps: Pick<ContactsDeps, "stores">, doc: ImportDoc, withErrors = true): Promise<ImportView> {
  const last = doc.started ? (await deps.stores.imports.checkpointsOf(doc._id)).at(-1) : undefined;
  const status = !doc.started ? "uploaded" : last?.done ? (last.error ? "failed" : "done") : "processing";
  const refused = (last?.failed ?? 0) + (last?.overLimit ?? 0);
  const errors =
    withErrors && last?.done && refused > 0 ? await deps.stores.imports.firstErrors(doc._id, LISTED_ERRORS) : [];
  return { doc, status, last, errors };
}

async function mustGetImport(deps: Pick<ContactsDeps, "stores">, caller: Caller, id: string): Promise<ImportDoc> {
  const doc = id.length <= 64 ? await deps.stores.imports.get(caller.userId, id) : null;
  if (!doc) throw appError("NOT_FOUND", "No such import.");
  return doc;
}

export async function getImport(deps: Pick<ContactsDeps, "stores">, caller: Caller, id: string): Promise<ImportView> {
  return viewOf(deps, await mustGetImport(deps, caller, id));
}

export async function listImports(
  deps: Pick<ContactsDeps, "stores">,
  caller: Caller,
  input: { projectId: string },
): Promise<ImportView[]> {
  const scope = scopeOf(caller, input.projectId);
  const docs = await deps.stores.imports.recent(scope.userId, scope.projectId);
  return Promise.all(docs.map((doc) => viewOf(deps, doc, false)));
}

/** The targets a column may map to in a project: the catalogue's fields and the consent targets. */
function knownTargets(settings: Settings): Set<string> {
  return new Set<string>([
    ...fieldCatalogue(customDefinitions(settings))
      .filter((f) => !["updated_on", "interactions", "source", "orderCount", "totalSpent"].includes(f.key))
      .map((f) => f.key),
    ...CONSENT_TARGETS,
  ]);
}

/**
 * The mapping an import runs with: each header's target as given (by header; empty skips it) or
 * else its guess, and which columns kept their guess. @throws CR_ERR_BAD_REQUEST (no email, an
 * unknown or repeated target).
 */
function resolveMapping(
  doc: ImportDoc,
  given: ReadonlyArray<{ header: string; target: string }>,
  settings: Settings,
): { mapping: Array<string | null>; guessed: boolean[] } {
  const known = knownTargets(settings);
  const byHeader = new Map(given.map((m) => [m.header, m.target]));
  const guessed = doc.headers.map((header) => !byHeader.has(header));
  const mapping = doc.headers.map((header, i) => {
    const target = byHeader.has(header) ? byHeader.get(header) : (doc.guessed[i] ?? "");
    return target ? target : null;
  });
  const used = new Set<string>();
  for (const target of mapping) {
    if (target === null) continue;
    if (!known.has(target)) throw badRequest({ mapping: `Unknown field: ${target}` });
    if (used.has(target)) throw badRequest({ mapping: `Two columns map to ${target}` });
    used.add(target);
  }
  if (!used.has("email")) throw badRequest({ mapping: "Map a column to Email" });
  return { mapping, guessed };
}

/** Contact type key by its key or label, lower-cased (a file may hold either). */
function contactTypeKeys(settings: Settings): Map<string, string> {
  const keys = new Map<string, string>();
  for (const type of settings.contactTypes) {
    keys.set(type.label.trim().toLowerCase(), type.key);
    keys.set(type.key.toLowerCase(), type.key);
  }
  return keys;
}

/**
 * target → cell text of one record under `mapping` (skipped columns absent); a contact type given
 * by its label becomes its key.
 */
function cellsOf(
  mapping: ReadonlyArray<string | null>,
  record: readonly string[],
  typeKeys: ReadonlyMap<string, string>,
): Record<string, string> {
  const cells: Record<string, string> = {};
  mapping.forEach((target, i) => {
    if (target) cells[target] = record[i] ?? "";
  });
  if (cells.contactType) cells.contactType = typeKeys.get(cells.contactType.trim().toLowerCase()) ?? cells.contactType;
  return cells;
}

/** A check's unknown select values, with the header and whether its target was guessed. */
export interface CheckedImport extends Omit<ImportCheckResult, "unknown"> {
  unknown: Array<UnknownValues & { header: string; guessed: boolean }>;
}

async function checkWith(
  deps: Pick<ContactsDeps, "stores">,
  doc: ImportDoc,
  settings: Settings,
  resolved: { mapping: Array<string | null>; guessed: boolean[] },
): Promise<CheckedImport> {
  const fields = new Map(fieldCatalogue(customDefinitions(settings)).map((f) => [f.key, f]));
  const check = new ImportCheck(
    resolved.mapping,
    fields,
    settings.contactTypes.map((t) => t.key),
  );
  const typeKeys = contactTypeKeys(settings);
  let header = true;
  for await (const record of readCsv(fileOf(deps, doc), doc.delimiter as CsvDelimiter, () => {})) {
    if (header) {
      header = false;
      continue;
    }
    check.add(record.line, cellsOf(resolved.mapping, record.cells, typeKeys));
  }
  const result = check.finish();
  return {
    ...result,
    unknown: result.unknown.map((u) => {
      const column = resolved.mapping.indexOf(u.target);
      return { ...u, header: doc.headers[column] ?? "", guessed: resolved.guessed[column] ?? false };
    }),
  };
}

/**
 * What an uploaded import would do with a mapping (headers not named keep their guess), without
 * writing anything: consent per row, refused rows, repeated emails, select values not in their list.
 * @throws NOT_FOUND, CR_ERR_BAD_REQUEST (the mapping, as StartImport).
 */
export async function checkImport(
  deps: Pick<ContactsDeps, "stores">,
  caller: Caller,
  input: { importId: string; mapping: Array<{ header: string; target: string }> },
): Promise<CheckedImport> {
  const doc = await mustGetImport(deps, caller, input.importId);
  const settings = await deps.stores.settings.get(doc.userId, doc.projectId);
  return checkWith(deps, doc, settings, resolveMapping(doc, input.mapping, settings));
}

/**
 * Starts an uploaded import with the user's mapping (one target per header, empty to skip; headers
 * not named keep their guess), the rule for contacts already there and the rule for an email
 * repeated inside the file (the first row wins unless `inFile` is "last"); it runs in the service
 * (`runImport`). A guessed column never fails rows by itself: a guessed select column holding values
 * outside its list refuses the start, naming them, until the caller decides (add them, map the
 * column elsewhere, or skip it). @throws NOT_FOUND, CONFLICT (already started), CR_ERR_BAD_REQUEST
 * (a mapping without email, an unknown or repeated target, unknown values in a guessed column).
 */
export async function startImport(
  deps: Deps,
  caller: Caller,
  input: {
    importId: string;
    mapping: Array<{ header: string; target: string }>;
    dedupe: "update" | "skip";
    inFile?: "first" | "last";
  },
): Promise<ImportView> {
  const doc = await mustGetImport(deps, caller, input.importId);
  if (doc.started) throw appError("CONFLICT", "This import has already started.");
  const settings = await deps.stores.settings.get(doc.userId, doc.projectId);
  const resolved = resolveMapping(doc, input.mapping, settings);
  const unknown = (await checkWith(deps, doc, settings, resolved)).unknown.find((u) => u.guessed);
  if (unknown) {
    const values = unknown.values.slice(0, 5).map((v) => v.value);
    throw badRequest({
      mapping: `${unknown.header} has values that are not in the list of ${labelOfTarget(unknown.target, settings)}: ${values.join(", ")}${unknown.more || unknown.values.length > 5 ? "…" : ""}. Add them, map the column to another field, or skip it.`,
    });
  }
  const mapping = resolved.mapping;
  const inFile = input.inFile === "last" ? "last" : "first";
  if (!(await deps.stores.imports.claimStart(doc._id, deps.now()))) {
    throw appError("CONFLICT", "This import has already started.");
  }
  await deps.stores.imports.setStart(doc._id, mapping, input.dedupe, inFile);
  const started: ImportDoc = { ...doc, mapping, dedupe: input.dedupe, inFile, started: true };
  await deps.enqueueImport(doc._id);
  return { doc: started, status: "processing", last: undefined, errors: [] };
}

function labelOfTarget(target: string, settings: Settings): string {
  if (target === "contactType") return "contact types";
  if (target === "customerKind") return "customer kinds";
  const field = fieldCatalogue(customDefinitions(settings)).find((f) => f.key === target);
  return field ? `${field.label} options` : target;
}

async function* fileOf(deps: Pick<ContactsDeps, "stores">, doc: ImportDoc) {
  for (let n = 0; n < doc.chunks; n++) yield await deps.stores.imports.chunk(doc._id, n);
}

/** Imported values over a stored contact: non-empty cells win, tags are added, custom values merged. */
function mergeInput(row: ImportedContact, current: StoredContact | undefined): ContactFieldsInput {
  const input: ContactFieldsInput = {
    email: row.email,
    tags: [...(current?.tags ?? []), ...row.tags],
    custom: row.custom,
  };
  for (const key of ["firstName", "lastName", "phone", "company", "customerKind", "contactType", "timeZone"] as const) {
    if (row[key]) input[key] = row[key];
  }
  if (row.customerSince) input.customerSince = row.customerSince;
  return input;
}

/** A repeated row over the earlier one: its non-empty cells win, tags and custom values are merged. */
function overlay(earlier: ImportedContact, later: ImportedContact): ImportedContact {
  const out: ImportedContact = {
    ...earlier,
    tags: [...new Set([...earlier.tags, ...later.tags])],
    custom: { ...earlier.custom, ...later.custom },
    consent: nextConsent(earlier.consent, later.consent),
  };
  for (const key of ["firstName", "lastName", "phone", "company", "customerKind", "contactType", "timeZone"] as const) {
    if (later[key]) (out as unknown as Record<string, unknown>)[key] = later[key];
  }
  if (later.customerSince) out.customerSince = later.customerSince;
  if (later.consentAt) out.consentAt = later.consentAt;
  return out;
}

/** The consent after an import row: a withdrawal or bounce wins; an opt-in only lifts `pending`. */
function nextConsent(current: ConsentStatus, imported: ConsentStatus): ConsentStatus {
  if (imported === "unsubscribed" || imported === "bounced" || imported === "complained") return imported;
  if (imported === "subscribed" && current === "pending") return "subscribed";
  return current;
}

/** The key of one row's effect: `<importId>:<line>`. */
export const rowKey = (importId: string, line: number) => `${importId}:${line}`;

/** The id of the contact an import row creates (a UUID from the row's key): created again, it is a duplicate. */
export function contactIdOfRow(importId: string, line: number): string {
  const hex = createHash("sha256").update(rowKey(importId, line)).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Runs (or resumes) an import: rows after the last checkpoint's line, in batches of 500. New contacts
 * are inserted with ContactCreated until the plan's profile limit; the rows past it are reported as
 * errors ("over the limit"), never dropped. Duplicates (in the project or earlier in the file) are
 * updated or skipped. Each batch appends a checkpoint; a second runner fails on it and stops.
 * Every row's effect is keyed by import and line: a new contact's id is `contactIdOfRow`, an update
 * writes `importRow` with its fields, a consent change has the row's key as id. So a `resumed` run
 * (its process was killed mid-batch) reads the project from the database and applies each row of
 * the interrupted batch once, counting the rows it finds applied as created or updated.
 * @returns "stopped" when `stopping()` turned true (it stops after a checkpoint), else "done".
 * @throws the database's errors (the job is retried; `failImport` after the last attempt).
 */
export async function runImport(
  deps: RunDeps,
  importId: string,
  options: { resumed?: boolean; stopping?: () => boolean } = {},
): Promise<"done" | "stopped"> {
  return runImportOnce(deps, importId, options.resumed ?? false, options.stopping ?? (() => false));
}

/** Ends an import whose last attempt failed: a final checkpoint with the error; the rows before it stay imported. */
export async function failImport(deps: RunDeps, importId: string, error: unknown): Promise<void> {
  deps.logger.error({ err: error, importId }, "import failed");
  const last = (await deps.stores.imports.checkpointsOf(importId).catch(() => [])).at(-1);
  if (last?.done) return;
  await deps.stores.imports
    .checkpoint({
      ...(last ?? zeroCheckpoint(importId)),
      _id: `${importId}:${(last?.batch ?? -1) + 1}`,
      batch: (last?.batch ?? -1) + 1,
      done: true,
      error: "The import stopped on an internal error. The rows before it are imported.",
      at: deps.now(),
    })
    .catch(() => false);
  await deps.stores.imports.finishRun(importId).catch(() => undefined);
}

function zeroCheckpoint(importId: string): ImportCheckpointDoc {
  return {
    _id: "",
    importId,
    batch: -1,
    line: 1,
    processed: 0,
    created: 0,
    updated: 0,
    skipped: 0,
    failed: 0,
    overLimit: 0,
    duplicates: 0,
    limit: 0,
    limitCode: "",
    done: false,
    error: "",
    at: new Date(0),
  };
}

async function runImportOnce(
  deps: RunDeps,
  importId: string,
  resumed: boolean,
  stopping: () => boolean,
): Promise<"done" | "stopped"> {
  /** Milliseconds spent per phase in this run (logged at its end: where an import's time goes). */
  const ms = { setup: 0, read: 0, consents: 0, inserts: 0, updates: 0, errors: 0, checkpoints: 0 };
  let mark = performance.now();
  const lap = (phase: keyof typeof ms) => {
    const now = performance.now();
    ms[phase] += now - mark;
    mark = now;
  };
  const doc = await deps.stores.imports.byId(importId);
  if (!doc?.started || !doc.mapping) return "done";
  const last = (await deps.stores.imports.checkpointsOf(importId)).at(-1);
  if (last?.done) {
    await deps.stores.imports.finishRun(importId);
    return "done";
  }
  const scope: Scope = { userId: doc.userId, projectId: doc.projectId };
  // A killed run may have written rows after its last checkpoint, and the project's snapshot may not
  // have them: it is read again from the database, where each applied row left its key.
  if (resumed) await deps.stores.contacts.snapshots.invalidate(scope);
  const settings = await deps.stores.settings.get(scope.userId, scope.projectId);
  const customFields = customDefinitions(settings);
  const fields = new Map(fieldCatalogue(customFields).map((f) => [f.key, f]));
  const contactTypes = settings.contactTypes.map((t) => t.key);
  const typeKeys = contactTypeKeys(settings);
  const known = new Map<string, StoredContact>();
  for (const { contact } of (await deps.stores.contacts.snapshot(scope)).entries.values())
    known.set(contact.email, contact);
  // The plan now (billing away: the run is retried); the contacts the user has only once a row would
  // create one: counting them decodes every one of them (6 s at 10,000 on a loaded machine), which an
  // import of updates alone need not wait for.
  const { tier, limit } = await deps.plans.profileLimit(scope.userId);
  const code = limitScenario(tier);
  let remaining: number | undefined;
  const roomLeft = async () => {
    remaining ??= Math.max(0, limit - (await deps.stores.contacts.countForUser(scope.userId)));
    return remaining;
  };
  lap("setup");
  const totals = { ...(last ?? zeroCheckpoint(importId)) };
  const afterLine = last?.line ?? 1;
  let batch = totals.batch + 1;
  let header = true;

  let rows = 0;
  let lastLine = afterLine;
  let errors: ImportErrorDoc[] = [];
  let fresh = new Map<string, Omit<ContactDoc, "outbox" | "outboxMinute">>();
  /** Updates of contacts already there, each with the line of the row that queued it. */
  let updates: Array<{ current: StoredContact; row: ImportedContact; repeat: boolean; line: number }> = [];
  /** The index in `updates` of each email's queued update (a repeated row with "last" folds into it). */
  let queued = new Map<string, number>();
  const inFile = doc.inFile ?? "first";
  /** Emails of the rows read so far (a later row with one of them is a duplicate inside the file). */
  const seenInFile = new Set<string>();
  /** Emails whose first row was skipped as a contact already there (their repeats are skipped too). */
  const skippedExisting = new Set<string>();

  const flush = async (done: boolean): Promise<boolean> => {
    lap("read");
    const docs = [...fresh.values()];
    if (docs.length > 0) {
      const withEvents = docs.map((d) => {
        const event = deps.events.created(
          { userId: d.userId, projectId: d.projectId, contactId: d._id, email: d.email },
          "import",
          d.consent,
        );
        return { ...d, outbox: [event], outboxMinute: Math.floor(event.time.getTime() / 60_000) };
      });
      // Consent changes first, keyed by the contact's id (the row's): appended again by a resumed
      // batch, they add nothing, and none is lost to a kill between the two writes.
      await deps.stores.timeline.appendConsents(
        docs.map((d) => ({
          _id: `import:${d._id}`,
          userId: d.userId,
          projectId: d.projectId,
          contactId: d._id,
          status: d.consent,
          source: "import",
          at: d.consentAt ?? d.createdAt,
        })),
      );
      lap("consents");
      let inserted = docs.length;
      try {
        await deps.stores.contacts.insertMany(scope, withEvents);
      } catch (error) {
        // A contact created meanwhile with the same email: that row is a duplicate, skipped.
        const result = (error as { insertedDocs?: unknown[]; result?: { insertedCount?: number } }).result;
        inserted = result?.insertedCount ?? (error as { insertedDocs?: unknown[] }).insertedDocs?.length ?? 0;
        if (!isDuplicateKey(error)) throw error;
      }
      totals.created += inserted;
      totals.skipped += docs.length - inserted;
      for (const d of docs) known.set(d.email, d as StoredContact);
      lap("inserts");
    }
    // The batch's updates in one write, and their consent changes in another.
    const planned: PlannedUpdate[] = [];
    const consentChanges: ConsentChangeDoc[] = [];
    let repeats = 0;
    for (const { current, row, repeat, line } of updates) {
      if (repeat) repeats++;
      const checked = checkContactFields(mergeInput(row, current), { customFields, contactTypes }, stateOf(current));
      if (!checked.ok) {
        totals.failed++;
        continue;
      }
      const consent = nextConsent(current.consent, row.consent);
      const key = rowKey(importId, line);
      const plan = planUpdate(deps, current, checked.value, customFields, { consent, importRow: key });
      planned.push(plan);
      if (consent !== current.consent) {
        consentChanges.push({
          _id: key,
          ...scope,
          contactId: current._id,
          status: consent,
          source: "import",
          at: deps.now(),
        });
      }
    }
    // As for new contacts: the consent changes (keyed by row) before the updates.
    await deps.stores.timeline.appendConsents(consentChanges);
    lap("consents");
    const matched = await deps.stores.contacts.updateMany(scope, planned);
    lap("updates");
    for (const { after } of planned) known.set(after.email, after);
    // A contact deleted while the import ran is skipped.
    totals.updated += Math.max(0, matched - repeats);
    totals.skipped += planned.length - matched;
    await deps.stores.imports.addErrors(errors);
    lap("errors");
    totals.processed += rows;
    const ok = await deps.stores.imports.checkpoint({
      ...totals,
      _id: `${importId}:${batch}`,
      batch,
      line: lastLine,
      limit,
      limitCode: totals.overLimit > 0 ? code : "",
      done,
      error: "",
      at: deps.now(),
    });
    lap("checkpoints");
    // The relay is woken at the end only: each pass reads every contact the import wrote this
    // minute again, so a kick per batch made the passes grow with the square of the batches (and
    // compete with the import for the database); between, its 5 s poll publishes.
    if (done) deps.kick();
    batch++;
    rows = 0;
    errors = [];
    fresh = new Map();
    updates = [];
    queued = new Map();
    return ok;
  };

  const problems: Array<{ line: number; reason: string }> = [];
  for await (const record of readCsv(fileOf(deps, doc), doc.delimiter as CsvDelimiter, (p) => problems.push(p))) {
    if (header) {
      header = false;
      continue;
    }
    for (const problem of problems.splice(0)) {
      if (problem.line <= afterLine) continue;
      errors.push({
        _id: `${importId}:${problem.line}`,
        importId,
        line: problem.line,
        email: "",
        reason: problem.reason,
      });
      totals.failed++;
      rows++;
    }
    const cells = cellsOf(doc.mapping, record.cells, typeKeys);
    const read = readRow(cells, fields, contactTypes);
    if (record.line <= afterLine) {
      // Resuming: the rows already imported still tell which emails the file repeats.
      if (read.ok) seenInFile.add(read.contact.email);
      continue;
    }
    lastLine = record.line;
    rows++;
    const fail = (reason: string, value = "") =>
      errors.push({
        _id: `${importId}:${record.line}`,
        importId,
        line: record.line,
        email: (cells.email ?? "").slice(0, 254),
        value: value.slice(0, 200),
        reason,
      });
    if (!read.ok) {
      fail(read.reason, read.value);
      totals.failed++;
    } else if (seenInFile.has(read.contact.email)) {
      // A duplicate inside the file: the first row stands unless the user chose the last.
      totals.duplicates = (totals.duplicates ?? 0) + 1;
      const row = read.contact;
      const pending = fresh.get(row.email);
      const at = queued.get(row.email);
      const current = known.get(row.email);
      if (inFile !== "last" || skippedExisting.has(row.email)) {
        // kept as the first row left it
      } else if (pending) {
        const checked = checkContactFields(
          mergeInput(row, pending as StoredContact),
          { customFields, contactTypes },
          stateOf(pending as StoredContact),
        );
        if (checked.ok) {
          const consent = nextConsent(pending.consent, row.consent);
          fresh.set(row.email, {
            ...newContactDoc(scope, checked.value, "import", consent, pending.createdAt, customFields, row.consentAt),
            _id: pending._id,
          });
        } else fail(Object.values(checked.fields)[0] ?? "Invalid row");
      } else if (at !== undefined) {
        const earlier = updates[at]!;
        updates[at] = { ...earlier, row: overlay(earlier.row, row) };
      } else if (current && current.importRow !== rowKey(importId, record.line)) {
        queued.set(row.email, updates.length);
        updates.push({ current, row, repeat: true, line: record.line });
      }
    } else {
      const row = read.contact;
      seenInFile.add(row.email);
      const current = known.get(row.email);
      if (current?._id === contactIdOfRow(importId, record.line)) {
        // Created by this import before its run was interrupted (resumed).
        totals.created++;
      } else if (current && current.importRow === rowKey(importId, record.line)) {
        // Updated by this row before the run was interrupted (resumed).
        totals.updated++;
      } else if (current) {
        if (doc.dedupe === "skip") {
          totals.skipped++;
          skippedExisting.add(row.email);
        } else {
          queued.set(row.email, updates.length);
          updates.push({ current, row, repeat: false, line: record.line });
        }
      } else if ((await roomLeft()) <= 0) {
        fail(`Over your plan's limit of ${limit} contacts (${code})`);
        totals.overLimit++;
      } else {
        const checked = checkContactFields(mergeInput(row, undefined), { customFields, contactTypes });
        if (!checked.ok) {
          fail(Object.values(checked.fields)[0] ?? "Invalid row");
          totals.failed++;
        } else {
          remaining = (remaining ?? 0) - 1;
          fresh.set(row.email, {
            ...newContactDoc(scope, checked.value, "import", row.consent, deps.now(), customFields, row.consentAt),
            _id: contactIdOfRow(importId, record.line),
          });
        }
      }
    }
    if (rows >= BATCH_ROWS) {
      if (!(await flush(false))) return "done";
      if (stopping()) return "stopped";
    }
  }
  for (const problem of problems.splice(0)) {
    if (problem.line <= afterLine) continue;
    errors.push({
      _id: `${importId}:${problem.line}`,
      importId,
      line: problem.line,
      email: "",
      reason: problem.reason,
    });
    totals.failed++;
    rows++;
  }
  if (await flush(true)) await deps.stores.imports.finishRun(importId);
  deps.logger.info({ importId, rows: totals.processed, ms: roundedMs(ms) }, "import run ended");
  return "done";
}

const roundedMs = (ms: Record<string, number>) =>
  Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, Math.round(v)]));

/**
 * Queues again every import not finished (called at start). Its job is normally still in the queue
 * (then this adds nothing); this covers a Redis that lost it.
 */
export async function resumeImports(deps: Pick<ContactsDeps, "stores" | "enqueueImport">): Promise<void> {
  for (const id of await deps.stores.imports.running()) await deps.enqueueImport(id, true);
}

/** The rows an import could not take, as CSV: line, email, value, reason. */
export async function importErrorsCsv(deps: Pick<ContactsDeps, "stores">, caller: Caller, id: string): Promise<string> {
  const doc = await mustGetImport(deps, caller, id);
  const errors = await deps.stores.imports.errorsOf(doc._id);
  return (
    csvLine(["line", "email", "value", "reason"]) +
    errors.map((e) => csvLine([e.line, e.email, e.value ?? "", e.reason])).join("")
  );
}
