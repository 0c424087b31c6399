import {
  idField,
  isDuplicateKey,
  modelOn,
  type OutboxEntry,
  outboxField,
  outboxMinuteField,
  outboxMinuteOf,
} from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { ContactDoc, StoredContact } from "./contact-doc";
import type { ContactSnapshots, ProjectSnapshot } from "./contact-snapshot";
import type { Scope } from "./scope";

export type { ContactDoc, Scope, StoredContact };

const contactSchema = new Schema<ContactDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    email: { type: String, required: true },
    firstName: { type: String, default: "" },
    lastName: { type: String, default: "" },
    phone: { type: String, default: "" },
    company: { type: String, default: "" },
    customerKind: { type: String, default: "" },
    contactType: { type: String, default: "" },
    tags: { type: [String], default: () => [] },
    custom: { type: Schema.Types.Mixed, default: () => ({}) },
    customerSince: Date,
    timeZone: { type: String, default: "" },
    updatedOn: { type: Date, required: true },
    orderCount: Number,
    totalSpent: Number,
    spentCurrency: String,
    source: { type: String, required: true },
    consent: { type: String, required: true },
    consentAt: Date,
    interactionCounts: { type: Schema.Types.Mixed, default: () => ({}) },
    interactionCount: { type: Number, default: 0 },
    facets: { type: [String], default: () => [] },
    outbox: outboxField,
    outboxMinute: outboxMinuteField,
    importRow: String,
    createdAt: { type: Date, required: true },
  },
  { collection: "contacts", versionKey: false, minimize: false },
);
// Unique per (project, email); userId first so the key also scopes by owner.
contactSchema.index({ userId: 1, projectId: 1, email: 1 }, { unique: true });
contactSchema.index({ facets: 1 });

export function contactModel(connection: Connection): Model<ContactDoc> {
  return modelOn<ContactDoc>(connection, "Contact", contactSchema);
}

/** The fields the table, segments and exports read (never the outbox). */
export const CONTACT_FIELDS = { outbox: 0 } as const;

/**
 * Contacts, always within one user's project; reads by `_id` or by indexed equality (docs/adr/0001),
 * and whole projects from their snapshot (contact-snapshot.ts), which every write here keeps.
 */
export class ContactRepository {
  constructor(
    readonly model: Model<ContactDoc>,
    readonly snapshots: ContactSnapshots,
  ) {}

  /**
   * Every contact of the project, up to date with every write acknowledged before: from this
   * process's memory and Redis, built from one database read of the project when Redis has none
   * (seconds at 50,000 contacts; it goes on after the call that started it times out).
   */
  snapshot(scope: Scope): Promise<ProjectSnapshot> {
    return this.snapshots.read(scope, () => this.narrowed(scope));
  }

  async get(scope: Scope, id: string): Promise<StoredContact | null> {
    return this.model
      .findOne({ _id: id, userId: scope.userId, projectId: scope.projectId }, CONTACT_FIELDS)
      .lean<StoredContact>();
  }

  /** A contact of the user in any of their projects (service callers name the user, not the project). */
  async ofUser(userId: string, id: string): Promise<StoredContact | null> {
    return this.model.findOne({ _id: id, userId }, CONTACT_FIELDS).lean<StoredContact>();
  }

  async byEmail(scope: Scope, email: string): Promise<StoredContact | null> {
    return this.model
      .findOne({ userId: scope.userId, projectId: scope.projectId, email }, CONTACT_FIELDS)
      .lean<StoredContact>();
  }

  /**
   * The project's contacts matching one indexed equality at most (a facet), as a cursor: everything
   * else (search, ranges, sort) is applied by the caller over this narrowed set.
   */
  narrowed(scope: Scope, narrow?: { facets?: string }) {
    return this.model
      .find({ userId: scope.userId, projectId: scope.projectId, ...(narrow ?? {}) }, CONTACT_FIELDS)
      .lean<StoredContact[]>()
      .cursor({ batchSize: 1000 });
  }

  /**
   * One page of the project's contacts carrying any of `facets` (indexed equality), by `_id`
   * after `after`: the ids and emails only. One query per facet, merged: FerretDB pushes a facet's
   * equality down but not `$in`, which would read the whole project.
   */
  async withFacets(
    scope: Scope,
    facets: string[],
    after: string,
    limit: number,
  ): Promise<Array<{ _id: string; email: string }>> {
    const pages = await Promise.all(
      facets.map((facet) =>
        this.model
          .find(
            {
              userId: scope.userId,
              projectId: scope.projectId,
              facets: facet,
              ...(after ? { _id: { $gt: after } } : {}),
            },
            { _id: 1, email: 1 },
          )
          .sort({ _id: 1 })
          .limit(limit)
          .lean<Array<{ _id: string; email: string }>>(),
      ),
    );
    // The union's first `limit` ids after `after` are among each facet's first `limit`.
    const byId = new Map(pages.flat().map((c) => [c._id, c] as const));
    return [...byId.values()].sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0)).slice(0, limit);
  }

  /**
   * Every contact of the database, streamed in the collection's natural order (the date-token
   * backfill's one pass). FerretDB pushes neither `_id` ranges nor sorts down: an `_id`-ordered page
   * of 500 took 144 s on 155,000 contacts, a plain cursor's first 500 took 1 s.
   */
  streamAll(batchSize: number): AsyncIterable<StoredContact> {
    return this.model.find({}, CONTACT_FIELDS).lean<StoredContact[]>().cursor({ batchSize });
  }

  /**
   * Adds facets to a contact, only while it is still as saved at `updatedOn`: a save since wrote all
   * its facets itself. Touches `facets` alone ($addToSet, so a repeat adds nothing). The snapshot keeps
   * the facets it had: the month-day facets are read from the database only (`withFacets`). @returns whether the contact was still as read.
   */
  async addFacets(id: string, updatedOn: Date, facets: string[]): Promise<boolean> {
    const result = await this.model.updateOne({ _id: id, updatedOn }, { $addToSet: { facets: { $each: facets } } });
    return result.matchedCount === 1;
  }

  /** Inserts a contact with its first event. @returns false when the email is already a contact there. */
  async insert(doc: Omit<ContactDoc, "outbox" | "outboxMinute">, event: OutboxEntry): Promise<boolean> {
    try {
      await this.model.create({ ...doc, outbox: [event], outboxMinute: outboxMinuteOf(event.time) });
      await this.snapshots.put(doc, [doc]);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** Sets fields and appends an event in one update; the contact as it is after, or null. */
  async update(
    scope: Scope,
    id: string,
    set: Partial<ContactDoc>,
    events: OutboxEntry[],
  ): Promise<StoredContact | null> {
    const update: Record<string, unknown> = { $set: set };
    if (events.length > 0) {
      update.$push = { outbox: { $each: events } };
      update.$set = { ...set, outboxMinute: outboxMinuteOf(events[0]!.time) };
    }
    // FerretDB 1.24 has no projection in findOneAndUpdate: the outbox is dropped here.
    const doc = await this.model
      .findOneAndUpdate({ _id: id, userId: scope.userId, projectId: scope.projectId }, update, {
        returnDocument: "after",
      })
      .lean<ContactDoc>();
    if (!doc) return null;
    const { outbox: _outbox, ...rest } = doc;
    await this.snapshots.put(scope, [rest]);
    return rest;
  }

  /**
   * Updates several contacts of one project (an import's batch), each setting its fields and
   * appending its events, eight at a time. Not one `bulkWrite`: FerretDB 1.24 holds a PostgreSQL
   * connection per statement of a command until the command ends, so a 500-statement write took all
   * 50 of its pool and every client of the server hung. `after` is each contact as it will be, for
   * the snapshot. An update whose `set` names an `importRow` is applied only to a contact that does
   * not carry that row already (a resumed import's batch applies each row once). A batch of 500 as one
   * `bulkWrite` of 50-statement chunks measured no faster than this (71 vs 56–130 updates/s, loaded
   * machine). @returns how many were applied (a contact deleted meanwhile, or whose row was, is skipped).
   * @throws the first failed update's error (e.g. a duplicate email), after its slice settled: the
   * updates before it stay written, and the project's snapshot is invalidated so the next read
   * rebuilds it from the database.
   */
  async updateMany(
    scope: Scope,
    updates: ReadonlyArray<{ id: string; set: Partial<ContactDoc>; events: OutboxEntry[]; after: StoredContact }>,
  ): Promise<number> {
    const done: StoredContact[] = [];
    try {
      for (let at = 0; at < updates.length; at += UPDATE_CONCURRENCY) {
        const slice = updates.slice(at, at + UPDATE_CONCURRENCY);
        // Settled, not Promise.all: a rejection would leave the slice's other updates in flight,
        // landing in the database after the snapshot was written.
        const results = await Promise.allSettled(
          slice.map(({ id, set, events }) =>
            this.model.updateOne(
              {
                _id: id,
                userId: scope.userId,
                projectId: scope.projectId,
                ...(set.importRow ? { importRow: { $ne: set.importRow } } : {}),
              },
              events.length > 0
                ? {
                    $set: { ...set, outboxMinute: outboxMinuteOf(events[0]!.time) },
                    $push: { outbox: { $each: events } },
                  }
                : { $set: set },
            ),
          ),
        );
        slice.forEach((u, i) => {
          const result = results[i]!;
          if (result.status === "fulfilled" && result.value.matchedCount === 1) done.push(u.after);
        });
        const failed = results.find((result): result is PromiseRejectedResult => result.status === "rejected");
        if (failed) throw failed.reason;
      }
    } catch (err) {
      // The batch is half written: what went in is put (for a replica mid-build), and the next read
      // rebuilds the project from the database whatever the put missed.
      await this.snapshots.put(scope, done);
      await this.snapshots.invalidate(scope).catch(() => undefined);
      throw err;
    }
    await this.snapshots.put(scope, done);
    return done.length;
  }

  async remove(scope: Scope, id: string): Promise<boolean> {
    const result = await this.model.deleteOne({ _id: id, userId: scope.userId, projectId: scope.projectId });
    await this.snapshots.drop(scope, [id]);
    return result.deletedCount === 1;
  }

  /**
   * Inserts new contacts of one project in one batch (an import), unordered: a row whose email became
   * a contact meanwhile fails alone. @throws the driver's error (a duplicate key among others) after
   * the rows that went in are in the snapshot.
   */
  async insertMany(scope: Scope, docs: ContactDoc[]): Promise<void> {
    try {
      await this.model.insertMany(docs, { ordered: false });
      await this.snapshots.put(scope, docs);
    } catch (error) {
      const refused = refusedIndexes(error);
      // Which rows went in is unknown: the next read rebuilds the project from the database.
      if (refused === null) await this.snapshots.invalidate(scope).catch(() => undefined);
      else
        await this.snapshots.put(
          scope,
          docs.filter((_, i) => !refused.has(i)),
        );
      throw error;
    }
  }

  /** Contacts alive in all the user's projects (the plan's `profiles` counter). */
  countForUser(userId: string): Promise<number> {
    return this.model.countDocuments({ userId });
  }
}

/** Contact updates in flight at once in `updateMany` (each holds one FerretDB connection). */
const UPDATE_CONCURRENCY = 8;

/** The indexes of the rows an unordered insertMany refused (its write errors), or null when unknown. */
function refusedIndexes(error: unknown): Set<number> | null {
  const writeErrors = (error as { writeErrors?: unknown }).writeErrors;
  if (!Array.isArray(writeErrors)) return null;
  const indexes = writeErrors.map((e: { index?: unknown; err?: { index?: unknown } }) => e.index ?? e.err?.index);
  return indexes.every((i) => typeof i === "number") ? new Set(indexes as number[]) : null;
}
