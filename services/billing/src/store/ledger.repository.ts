import { modelOn, type OutboxEntry, outboxField } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { Allocation, EntryKind, LedgerEntry } from "../domain/ledger";

/**
 * One append-only ledger entry. Never updated: the balance is computed from the entries.
 * Two unique indexes make concurrent writers safe on FerretDB (whose updates are not isolated):
 * `(userId, seq)` lets exactly one writer append the user's next entry, and `key` makes grants per
 * cause, debits per idempotency key and refunds per debit happen once.
 */
export interface LedgerEntryDoc {
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
  createdAt: Date;
}

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

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;

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

/** The credit ledger: inserts and reads only. */
export class LedgerRepository {
  constructor(readonly model: Model<LedgerEntryDoc>) {}

  /** The user's entries in ledger order. */
  async entries(userId: string): Promise<StoredEntry[]> {
    const docs = await this.model.find({ userId }, { outbox: 0 }).sort({ seq: 1 }).lean<LedgerEntryDoc[]>();
    return docs.map(toEntry);
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
      });
      return "appended";
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return (await this.model.exists({ key: entry.key })) ? "key-taken" : "seq-taken";
    }
  }
}
