// The write idioms every store uses for state that concurrent writers touch (DESIGN.md section 5).
// FerretDB 1.24 does not isolate updates (50 parallel `$inc` on one document kept 7; a filter on an
// update is no compare-and-set), but an insert guarded by a unique index is atomic there as on
// MongoDB: of many concurrent inserts of one key, exactly one succeeds and the others fail with
// the duplicate-key error 11000. So shared state is append-only behind unique indexes.
// FerretDB (PostgreSQL backend) pushes down equality on top-level fields only; ranges, `$regex` and
// dot paths decode the whole collection in FerretDB. So hot reads go by `_id`, and polls by an
// equality (e.g. the outbox's `outboxMinute`).
import { type Connection, type Model, Schema } from "mongoose";

/** MongoDB's (and FerretDB's) duplicate-key error code. */
const DUPLICATE_KEY = 11000;

/**
 * Whether `error` is a unique-index violation (code 11000) from an insert or an upsert, in any
 * of the shapes the driver and mongoose give it (MongoServerError, MongoBulkWriteError).
 */
export function isDuplicateKey(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, writeErrors } = error as { code?: unknown; writeErrors?: Array<{ code?: unknown }> };
  return code === DUPLICATE_KEY || (Array.isArray(writeErrors) && writeErrors.some((e) => e.code === DUPLICATE_KEY));
}

/**
 * Inserts `doc` unless a document with the same unique key (its `_id` or any unique index)
 * exists. Of concurrent callers with one key, exactly one gets true.
 * @returns true when this call inserted the document, false when the key was taken.
 * @throws any error other than a duplicate key (validation, connection).
 */
export async function insertOnce<T>(model: Model<T>, doc: Partial<T>): Promise<boolean> {
  try {
    await model.create(doc as Parameters<Model<T>["create"]>[0]);
    return true;
  } catch (error) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}

/**
 * Inserts each of `docs` unless a document with its unique key exists, in one unordered
 * `insertMany` (one round trip for a batch; of concurrent callers with one key, exactly one wins).
 * @returns per document, in order, whether this call inserted it.
 * @throws any error other than duplicate keys (then some documents may have been inserted).
 */
export async function insertEachOnce<T>(model: Model<T>, docs: Partial<T>[]): Promise<boolean[]> {
  const inserted = docs.map(() => true);
  if (docs.length === 0) return inserted;
  try {
    await model.insertMany(docs as Parameters<Model<T>["insertMany"]>[0], { ordered: false });
  } catch (error) {
    const writeErrors = (error as { writeErrors?: Array<{ index?: number; code?: unknown }> }).writeErrors;
    if (!Array.isArray(writeErrors) || writeErrors.length === 0) throw error;
    for (const failure of writeErrors) {
      if (failure.code !== DUPLICATE_KEY || failure.index === undefined) throw error;
      inserted[failure.index] = false;
    }
  }
  return inserted;
}

interface MarkerDoc {
  _id: string;
  at: Date;
}

/**
 * A set of ids kept as one document each (`{ _id, at }`). `add` is an insert guarded by the
 * unique `_id`, so exactly one of many concurrent callers adds a given id. Used for one-time
 * token uses, revoked families, consumed events.
 */
export class MarkerSet {
  readonly model: Model<MarkerDoc>;

  /** @param name the mongoose model name, unique per connection; @param collection its collection. */
  constructor(connection: Connection, name: string, collection: string) {
    this.model =
      (connection.models[name] as Model<MarkerDoc> | undefined) ??
      connection.model<MarkerDoc>(
        name,
        new Schema<MarkerDoc>({ _id: String, at: { type: Date, required: true } }, { versionKey: false }),
        collection,
      );
  }

  /** @returns true when this call added the id, false when it was there already. */
  add(id: string, at: Date): Promise<boolean> {
    return insertOnce(this.model, { _id: id, at });
  }

  /** When the id was added, or null. */
  async get(id: string): Promise<Date | null> {
    return (await this.model.findById(id).lean<MarkerDoc>())?.at ?? null;
  }

  /** Removes the ids added at or before `before`; how many. */
  async sweep(before: Date): Promise<number> {
    return (await this.model.deleteMany({ at: { $lte: before } })).deletedCount;
  }
}
