import {
  insertOnce,
  isDuplicateKey,
  modelOn,
  type OutboxEntry,
  outboxField,
  outboxMinuteField,
  outboxMinuteOf,
} from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import {
  type Allocation,
  applyEntry,
  type Balance,
  balanceOf,
  creditsOf,
  type EntryKind,
  type GrantState,
  type LedgerEntry,
} from "../domain/ledger";

/**
 * One append-only ledger entry. Never updated: the balance is computed from the entries (and
 * kept per user in a snapshot, see LedgerRepository).
 * Two unique indexes make concurrent writers safe on FerretDB (whose updates are not isolated):
 * `(userId, seq)` lets exactly one writer append the user's next entry, and `key` makes grants per
 * cause, debits per idempotency key and refunds per debit happen once.
 */
export interface LedgerEntryDoc {
  /** `<userId>:<seq>` (so "is there an entry after seq n" is a read by `_id`); a UUID in older entries. */
  _id: string;
  userId: string;
  seq: number;
  kind: EntryKind;
  amount: number;
  /**
   * Unique: `grant:<source>:<userId>`, `debit:<userId>:<idempotencyKey>` (or `debit:<id>` without
   * a key), `refund:<debitId>`.
   */
  key: string;
  /** Grants: when their unspent credits stop counting; null = never. */
  expiresAt: Date | null;
  /** Grants: why they were given, e.g. "free-tier". */
  source: string;
  /** Debits: why and for which craft. */
  reason: string;
  craftId: string;
  /** Debits and refunds: grants the credits came from / go back to. */
  allocations: Allocation[];
  /** Refunds: the debit refunded. */
  debitId: string;
  /** Spendable credits right after this entry, for audits (reads recompute from the entries). */
  balanceAfter: number;
  outbox: OutboxEntry[];
  /** The minute of the outbox entry: the relay polls recent entries by equality on it. */
  outboxMinute: number;
  createdAt: Date;
}

/** The `_id` of a user's entry `seq`. */
export const entryId = (userId: string, seq: number) => `${userId}:${seq}`;

const allocationSchema = new Schema<Allocation>(
  { grantId: { type: String, required: true }, amount: { type: Number, required: true } },
  { _id: false },
);

const ledgerEntrySchema = new Schema<LedgerEntryDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    seq: { type: Number, required: true },
    kind: { type: String, enum: ["grant", "debit", "refund"], required: true },
    amount: { type: Number, required: true, min: 0 },
    key: { type: String, required: true, unique: true },
    expiresAt: { type: Date, default: null },
    source: { type: String, default: "" },
    reason: { type: String, default: "" },
    craftId: { type: String, default: "" },
    allocations: { type: [allocationSchema], default: () => [] },
    debitId: { type: String, default: "" },
    balanceAfter: { type: Number, required: true },
    outbox: outboxField,
    outboxMinute: outboxMinuteField,
  },
  { collection: "ledger_entries", timestamps: { createdAt: true, updatedAt: false }, versionKey: false },
);
ledgerEntrySchema.index({ userId: 1, seq: 1 }, { unique: true });

export function ledgerEntryModel(connection: Connection): Model<LedgerEntryDoc> {
  return modelOn<LedgerEntryDoc>(connection, "LedgerEntry", ledgerEntrySchema);
}

/** A stored entry: the domain's fields plus who, why and when. */
export interface StoredEntry extends LedgerEntry {
  userId: string;
  key: string;
  source: string;
  reason: string;
  craftId: string;
  debitId: string;
  balanceAfter: number;
  createdAt: Date;
}

export type NewEntry = Omit<StoredEntry, "createdAt"> & { outbox: OutboxEntry[] };

/** What an append did: written, or lost to another writer on the seq or on the key. */
export type AppendResult = "appended" | "seq-taken" | "key-taken";

/** The part of an entry `appendNext`'s builder decides; the store adds the user, key, seq and id. */
export type EntryDraft = Omit<NewEntry, "userId" | "key" | "seq" | "id" | "balanceAfter" | "outbox"> & {
  /** The entry's CreditsChanged, given its id, seq and the balance after it. */
  outbox: (entry: { id: string; seq: number; after: Balance; now: Date }) => OutboxEntry[];
};

/**
 * What `appendNext`'s builder answers, given the user's balance: an entry to append, or a result
 * without writing (e.g. out of credits).
 */
export type Build<R> = (
  balance: Balance,
  now: Date,
) => { append: EntryDraft; result: (after: Balance) => R } | { done: R };

/** What `appendNext` did: appended (with the balance after), or found the key taken. */
export type AppendNextResult<R> =
  | { outcome: "appended"; entry: StoredEntry; after: Balance; result: R }
  | { outcome: "done"; result: R }
  | { outcome: "key-taken"; existing: StoredEntry; balance: Balance };

/** How many times `appendNext` retries after losing the race for the user's next seq. */
export const MAX_APPEND_ATTEMPTS = 200;

/** A short random pause between attempts, so writers that collided do not collide again in step. */
function backoff(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(50, 2 * attempt);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function toEntry(doc: LedgerEntryDoc): StoredEntry {
  return {
    id: doc._id,
    userId: doc.userId,
    seq: doc.seq,
    kind: doc.kind,
    amount: doc.amount,
    key: doc.key,
    expiresAt: doc.expiresAt ? new Date(doc.expiresAt) : null,
    source: doc.source ?? "",
    reason: doc.reason ?? "",
    craftId: doc.craftId ?? "",
    allocations: (doc.allocations ?? []).map(({ grantId, amount }) => ({ grantId, amount })),
    debitId: doc.debitId ?? "",
    balanceAfter: doc.balanceAfter,
    createdAt: new Date(doc.createdAt),
  };
}

/**
 * The credit ledger: append-only entries (the truth) and, per user, a balance snapshot keyed by
 * `_id = userId` for reads by `_id`.
 *
 * FerretDB 1.24 does not isolate updates of one document, so the snapshot is only ever trusted
 * after a check: it is written after its entry, forward only (a filter on its seq), and a reader
 * confirms no entry `seq + 1` exists (one equality query on the unique (userId, seq) index). A
 * snapshot left behind by a crash or by a slower replica's write is rebuilt from the ledger.
 */
export class LedgerRepository {
  constructor(
    readonly model: Model<LedgerEntryDoc>,
    readonly balances: Model<BalanceDoc>,
  ) {}

  /** The user's entries in ledger order (audits, tests, rebuilding a snapshot). */
  async entries(userId: string): Promise<StoredEntry[]> {
    const docs = await this.model.find({ userId }, { outbox: 0 }).sort({ seq: 1 }).lean<LedgerEntryDoc[]>();
    return docs.map(toEntry);
  }

  /**
   * The user's entries with `from < seq <= to`, newest first (a page of the wallet's history; an
   * equality on userId with a range on the few entries it selects).
   */
  async between(userId: string, from: number, to: number): Promise<StoredEntry[]> {
    const docs = await this.model
      .find({ userId, seq: { $gt: from, $lte: to } }, { outbox: 0 })
      .lean<LedgerEntryDoc[]>();
    return docs.map(toEntry).sort((a, b) => b.seq - a.seq);
  }

  /** The entry recorded under a unique key, or null. */
  async findByKey(key: string): Promise<StoredEntry | null> {
    const doc = await this.model.findOne({ key }, { outbox: 0 }).lean<LedgerEntryDoc>();
    return doc ? toEntry(doc) : null;
  }

  /** An entry by id, of any user (a refund names only its debit), or null. */
  async findById(id: string): Promise<StoredEntry | null> {
    const doc = await this.model.findOne({ _id: id }, { outbox: 0 }).lean<LedgerEntryDoc>();
    return doc ? toEntry(doc) : null;
  }

  /**
   * The user's balance as of their newest entry: the snapshot (by `_id`) when it is current,
   * else rebuilt from the ledger and stored (a user from before snapshots, or a snapshot a crash
   * or a race left behind). `EMPTY_BALANCE` for a user with no entries.
   */
  async balance(userId: string, now: Date): Promise<Balance> {
    const snapshot = await this.snapshot(userId);
    if (snapshot && !(await this.hasEntry(userId, snapshot.seq + 1))) return snapshot;
    return this.rebuild(userId, now);
  }

  /**
   * Whether the user has an entry `seq`, by `_id`. Entries from before the `<userId>:<seq>` ids
   * are UUID-keyed, but a snapshot is only ever written from the whole ledger or after an entry of
   * this code, so the entry after a snapshot always has the new id. (During a rolling deploy an
   * old replica's entry is missed here until the next write, whose insert then fails on the
   * (userId, seq) index and rebuilds.)
   */
  private async hasEntry(userId: string, seq: number): Promise<boolean> {
    return (await this.model.exists({ _id: entryId(userId, seq) })) !== null;
  }

  /** The stored snapshot as is (possibly behind the ledger), or null. */
  private async snapshot(userId: string): Promise<Balance | null> {
    const doc = await this.balances.findById(userId).lean<BalanceDoc>();
    return doc ? fromDoc(doc) : null;
  }

  /** The balance replayed from every entry of the user, stored as the snapshot. */
  async rebuild(userId: string, now: Date): Promise<Balance> {
    const balance = balanceOf(await this.entries(userId), now);
    if (balance.seq > 0) await this.saveSnapshot(userId, balance);
    return balance;
  }

  /**
   * Appends the user's next entry: reads the balance, asks `build` what to write, and inserts it
   * with seq = balance.seq + 1 under the unique `key`. Losing the seq to another writer reads the
   * ledger again and asks again (up to MAX_APPEND_ATTEMPTS, then throws `TooBusy`). Losing the key
   * answers "key-taken" with the existing entry and the balance read after it (so a repeated
   * refund or debit reports the balance that includes the first one). After an append the
   * snapshot moves to the new entry before this returns.
   */
  async appendNext<R>(userId: string, key: string, build: Build<R>, now: () => Date): Promise<AppendNextResult<R>> {
    let fresh = false;
    for (let attempt = 1; attempt <= MAX_APPEND_ATTEMPTS; attempt++) {
      const at = now();
      // The snapshot unchecked: if it is behind, the insert at its seq + 1 fails and we rebuild.
      const snapshot = fresh ? null : await this.snapshot(userId);
      const balance = snapshot ?? (await this.rebuild(userId, at));
      const decided = build(balance, at);
      if ("done" in decided) {
        // An answer without a write (e.g. out of credits) must not rest on a stale snapshot.
        if (snapshot && (await this.hasEntry(userId, snapshot.seq + 1))) {
          fresh = true;
          continue;
        }
        return { outcome: "done", result: decided.done };
      }
      const { append: draft, result: finish } = decided;
      const seq = balance.seq + 1;
      const id = entryId(userId, seq);
      const after = applyEntry(balance, { id, seq, ...draft }, at);
      const entry: NewEntry = {
        ...draft,
        id,
        userId,
        key,
        seq,
        balanceAfter: creditsOf(after, at).credits,
        outbox: draft.outbox({ id, seq, after, now: at }),
      };
      const result = await this.append(entry);
      if (result === "appended") {
        await this.saveSnapshot(userId, after);
        return { outcome: "appended", entry: { ...entry, createdAt: at }, after, result: finish(after) };
      }
      if (result === "key-taken") {
        // Read the balance only now that the key's entry is known to exist, so it includes it.
        const existing = await this.findByKey(key);
        if (existing) return { outcome: "key-taken", existing, balance: await this.balance(userId, now()) };
      }
      fresh = true;
      await backoff(attempt);
    }
    throw new TooBusy(userId);
  }

  /**
   * Inserts an entry with its outbox (its CreditsChanged event is committed with it). A duplicate
   * key says which race was lost: the key (the same grant, debit or refund exists) or the seq
   * (another entry of the user came first: read again and retry).
   */
  async append(entry: NewEntry): Promise<AppendResult> {
    try {
      await this.model.create({
        _id: entry.id,
        userId: entry.userId,
        seq: entry.seq,
        kind: entry.kind,
        amount: entry.amount,
        key: entry.key,
        expiresAt: entry.expiresAt,
        source: entry.source,
        reason: entry.reason,
        craftId: entry.craftId,
        allocations: entry.allocations,
        debitId: entry.debitId,
        balanceAfter: entry.balanceAfter,
        outbox: entry.outbox,
        outboxMinute: outboxMinuteOf(entry.outbox[0]?.time ?? new Date()),
      });
      return "appended";
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return (await this.model.exists({ key: entry.key })) ? "key-taken" : "seq-taken";
    }
  }

  /**
   * Moves the snapshot forward to `balance`: never back (the filter on seq), and a lost update
   * (no isolation) only leaves an older snapshot, which `balance()` detects and rebuilds.
   */
  private async saveSnapshot(userId: string, balance: Balance): Promise<void> {
    const doc = { seq: balance.seq, grants: balance.grants };
    const moved = await this.balances.updateOne({ _id: userId, seq: { $lt: balance.seq } }, { $set: doc });
    if (moved.matchedCount === 0) await insertOnce(this.balances, { _id: userId, ...doc });
  }
}

/** The ledger stayed too busy for `MAX_APPEND_ATTEMPTS` rounds (many replicas writing one user). */
export class TooBusy extends Error {
  constructor(userId: string) {
    super(`ledger of ${userId} too busy`);
  }
}

/** The balance snapshot of one user: `_id` = user id, as of entry `seq`. */
export interface BalanceDoc {
  _id: string;
  seq: number;
  grants: GrantState[];
}

const grantStateSchema = new Schema<GrantState>(
  {
    grantId: { type: String, required: true },
    seq: { type: Number, required: true },
    amount: { type: Number, required: true },
    remaining: { type: Number, required: true },
    expiresAt: { type: Date, default: null },
  },
  { _id: false },
);

const balanceSchema = new Schema<BalanceDoc>(
  {
    _id: { type: String, required: true },
    seq: { type: Number, required: true },
    grants: { type: [grantStateSchema], default: () => [] },
  },
  { collection: "balances", versionKey: false },
);

export function balanceModel(connection: Connection): Model<BalanceDoc> {
  return modelOn<BalanceDoc>(connection, "Balance", balanceSchema);
}

function fromDoc(doc: BalanceDoc): Balance {
  return {
    seq: doc.seq,
    grants: (doc.grants ?? []).map((grant) => ({
      grantId: grant.grantId,
      seq: grant.seq,
      amount: grant.amount,
      remaining: grant.remaining,
      expiresAt: grant.expiresAt ? new Date(grant.expiresAt) : null,
    })),
  };
}
