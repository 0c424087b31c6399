import { isDuplicateKey, modelOn } from "@crafter/kit";
import type { Connection, Model } from "mongoose";
import { Schema } from "mongoose";
import type { GlobalFlag } from "../domain/flags";

/** A global feature flag: `_id` is the flag's name. Not tenant data: the same for every user. */
export interface FlagDoc {
  _id: string;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

const flagSchema = new Schema<FlagDoc>(
  {
    _id: { type: String, required: true },
    enabled: { type: Boolean, required: true },
  },
  { collection: "flags", timestamps: true, versionKey: false },
);

export function flagModel(connection: Connection): Model<FlagDoc> {
  return modelOn<FlagDoc>(connection, "Flag", flagSchema);
}

export interface FlagCacheOptions {
  /** How long `all()` answers from memory, in ms (0: every call reads the database). */
  cacheMs: number;
  /** The clock, in ms (tests move it). Default Date.now. */
  now?: () => number;
}

/**
 * Global flags with their default state. Every dashboard load reads them (GetFlags), and they are
 * the same for every user and change only when an operator flips one, so `all()` may answer from
 * memory for `cacheMs`: a flip reaches users within that time.
 */
export class FlagRepository {
  private cached: { flags: GlobalFlag[]; at: number } | undefined;
  private readonly now: () => number;

  constructor(
    private readonly model: Model<FlagDoc>,
    private readonly cache: FlagCacheOptions = { cacheMs: 0 },
  ) {
    this.now = cache.now ?? Date.now;
  }

  /**
   * Inserts each flag that is not stored yet, with its default. Flags already stored keep the
   * state an operator may have given them. Safe to run on every start and from several replicas.
   * @returns how many flags were inserted.
   */
  async seed(flags: readonly GlobalFlag[]): Promise<number> {
    let inserted = 0;
    for (const flag of flags) {
      try {
        const result = await this.model.updateOne(
          { _id: flag.name },
          { $setOnInsert: { enabled: flag.enabled } },
          { upsert: true },
        );
        inserted += result.upsertedCount ?? 0;
      } catch (error) {
        // Another replica inserted the same flag between our match and our insert.
        if (!isDuplicateKey(error)) throw error;
      }
    }
    return inserted;
  }

  /** Sets a known flag's global default. @returns false for an unknown flag. */
  async setGlobal(name: string, enabled: boolean): Promise<boolean> {
    const result = await this.model.updateOne({ _id: name }, { $set: { enabled } });
    this.cached = undefined;
    return result.matchedCount === 1;
  }

  /** Every global flag (from memory when read within `cacheMs`). */
  async all(): Promise<GlobalFlag[]> {
    const now = this.now();
    if (this.cached && now - this.cached.at < this.cache.cacheMs) return this.cached.flags.map((flag) => ({ ...flag }));
    const docs = await this.model.find({}).lean<FlagDoc[]>();
    const flags = docs.map((doc) => ({ name: doc._id, enabled: doc.enabled }));
    if (this.cache.cacheMs > 0) this.cached = { flags: flags.map((flag) => ({ ...flag })), at: now };
    return flags;
  }
}
