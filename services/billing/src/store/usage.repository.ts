import {
  insertOnce,
  isDuplicateKey,
  modelOn,
  OUTBOX_MINUTE,
  type OutboxEntry,
  outboxField,
  outboxMinuteField,
  outboxMinuteOf,
} from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import { decideReserve, EMPTY_USAGE, type UsageState } from "../domain/usage";
import { TooBusy } from "./ledger.repository";

/**
 * One change of a monthly usage counter (append-only). `_id` is `<userId>:<counter>:<period>:<seq>`,
 * so the entry after a known one is a read by `_id`; the unique (userId, counter, period, seq)
 * index lets exactly one writer take each seq (FerretDB has no update isolation), and the unique
 * `key` makes each reservation and each release happen once.
 */
export interface UsageEntryDoc {
  _id: string;
  userId: string;
  counter: string;
  /** "YYYY-MM", UTC. */
  period: string;
  seq: number;
  /** `reserve:<userId>:<counter>:<key>` or `release:<userId>:<counter>:<key>`. */
  key: string;
  /** Signed units: + for a reservation, − for a release. */
  delta: number;
  usedAfter: number;
  at: Date;
}

/** The counter's newest known state, written after its entry, forward only (a hint, checked). */
interface UsageSnapshotDoc {
  _id: string;
  seq: number;
  used: number;
}

/** One per user, counter and month: carries the LimitReached event in its outbox. */
interface LimitReachedDoc {
  _id: string;
  userId: string;
  at: Date;
  outbox: OutboxEntry[];
  outboxMinute: number;
}

const usageEntrySchema = new Schema<UsageEntryDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    counter: { type: String, required: true },
    period: { type: String, required: true },
    seq: { type: Number, required: true },
    key: { type: String, required: true, unique: true },
    delta: { type: Number, required: true },
    usedAfter: { type: Number, required: true },
    at: { type: Date, required: true },
  },
  { collection: "usage_entries", versionKey: false },
);
usageEntrySchema.index({ userId: 1, counter: 1, period: 1, seq: 1 }, { unique: true });

const usageSnapshotSchema = new Schema<UsageSnapshotDoc>(
  {
    _id: { type: String, required: true },
    seq: { type: Number, required: true },
    used: { type: Number, required: true },
  },
  { collection: "usage_snapshots", versionKey: false },
);

const limitReachedSchema = new Schema<LimitReachedDoc>(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    at: { type: Date, required: true },
    outbox: outboxField,
    [OUTBOX_MINUTE]: outboxMinuteField,
  },
  { collection: "usage_limits_reached", versionKey: false },
);

export function usageModels(connection: Connection) {
  return {
    entries: modelOn<UsageEntryDoc>(connection, "UsageEntry", usageEntrySchema),
    snapshots: modelOn<UsageSnapshotDoc>(connection, "UsageSnapshot", usageSnapshotSchema),
    limits: modelOn<LimitReachedDoc>(connection, "UsageLimitReached", limitReachedSchema),
  };
}

const counterId = (userId: string, counter: string, period: string) => `${userId}:${counter}:${period}`;
const entryIdOf = (userId: string, counter: string, period: string, seq: number) =>
  `${counterId(userId, counter, period)}:${seq}`;

/** How many times a write retries after losing its seq to another writer. */
const MAX_ATTEMPTS = 20;

export type ReserveResult = { outcome: "reserved" | "repeated"; used: number } | { outcome: "over"; used: number };

export class UsageRepository {
  constructor(
    readonly entries: Model<UsageEntryDoc>,
    readonly snapshots: Model<UsageSnapshotDoc>,
    readonly limits: Model<LimitReachedDoc>,
  ) {}

  /**
   * The counter's state in a month: the snapshot by `_id`, then the entries after it read forward
   * by `_id` until one is missing (normally none). Every read is an `_id` equality.
   */
  async state(userId: string, counter: string, period: string): Promise<UsageState> {
    const id = counterId(userId, counter, period);
    const snapshot = await this.snapshots.findById(id).lean<UsageSnapshotDoc>();
    let state: UsageState = snapshot ? { seq: snapshot.seq, used: snapshot.used } : EMPTY_USAGE;
    for (;;) {
      const next = await this.entries.findById(entryIdOf(userId, counter, period, state.seq + 1)).lean<UsageEntryDoc>();
      if (!next) return state;
      state = { seq: next.seq, used: next.usedAfter };
    }
  }

  /**
   * Reserves `amount` if it fits under `limit`, once per `key`.
   * @returns reserved (with the use after it), repeated (the key's earlier reservation: its use
   *   after), or over (nothing written; the use now).
   * @throws TooBusy when other writers keep taking the next seq.
   */
  async reserve(
    input: { userId: string; counter: string; period: string; key: string; amount: number; limit: number },
    now: Date,
  ): Promise<ReserveResult> {
    const key = `reserve:${input.userId}:${input.counter}:${input.key}`;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const earlier = await this.entries.findOne({ key }).lean<UsageEntryDoc>();
      if (earlier) return { outcome: "repeated", used: earlier.usedAfter };
      const state = await this.state(input.userId, input.counter, input.period);
      const decision = decideReserve(state, input.amount, input.limit);
      if (!decision.ok) return { outcome: "over", used: state.used };
      if (await this.append(input, state, key, input.amount, decision.usedAfter, now))
        return { outcome: "reserved", used: decision.usedAfter };
    }
    throw new TooBusy(input.userId);
  }

  /**
   * Gives back the reservation made with `key` (in its own month), once.
   * @returns the use of that month after the release; unchanged when the key reserved nothing.
   */
  async release(
    input: { userId: string; counter: string; key: string },
    now: Date,
  ): Promise<{ used: number; released: boolean }> {
    const reserveKey = `reserve:${input.userId}:${input.counter}:${input.key}`;
    const releaseKey = `release:${input.userId}:${input.counter}:${input.key}`;
    const reservation = await this.entries.findOne({ key: reserveKey }).lean<UsageEntryDoc>();
    if (!reservation) return { used: 0, released: false };
    const target = { userId: input.userId, counter: input.counter, period: reservation.period };
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const state = await this.state(target.userId, target.counter, target.period);
      if (await this.entries.exists({ key: releaseKey })) return { used: state.used, released: false };
      const usedAfter = Math.max(0, state.used - reservation.delta);
      if (await this.append(target, state, releaseKey, -reservation.delta, usedAfter, now))
        return { used: usedAfter, released: true };
    }
    throw new TooBusy(input.userId);
  }

  /** Stores the LimitReached event of a user, counter and month once. @returns whether it was new. */
  async recordLimitReached(
    userId: string,
    counter: string,
    period: string,
    event: OutboxEntry,
    now: Date,
  ): Promise<boolean> {
    return insertOnce(this.limits, {
      _id: counterId(userId, counter, period),
      userId,
      at: now,
      outbox: [event],
      [OUTBOX_MINUTE]: outboxMinuteOf(event.time),
    });
  }

  /** Inserts the entry after `state`; false when another writer took that seq or this key. */
  private async append(
    target: { userId: string; counter: string; period: string },
    state: UsageState,
    key: string,
    delta: number,
    usedAfter: number,
    now: Date,
  ): Promise<boolean> {
    const seq = state.seq + 1;
    try {
      await this.entries.create({
        _id: entryIdOf(target.userId, target.counter, target.period, seq),
        ...target,
        seq,
        key,
        delta,
        usedAfter,
        at: now,
      });
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
    // Forward only: a slower writer never moves the snapshot back (a stale one is only slower).
    const id = counterId(target.userId, target.counter, target.period);
    const saved = await insertOnce(this.snapshots, { _id: id, seq, used: usedAfter });
    if (!saved) await this.snapshots.updateOne({ _id: id, seq: { $lt: seq } }, { $set: { seq, used: usedAfter } });
    return true;
  }
}
