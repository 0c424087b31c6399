import {
  idField,
  insertOnce,
  modelOn,
  type OutboxEntry,
  outboxField,
  outboxMinuteField,
  outboxMinuteOf,
} from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";
import type { Scope } from "./contact.repository";

/**
 * One "Ask for permission" email to one pending contact, appended. `_id` is
 * `<contactId>:<window>` (domain/consent.ts `askId`): a second ask of the contact in the same
 * 30-day window, by another click or replica, fails on the key and sends nothing. It carries the
 * ContactConsentRequested the notifications service emails (outbox); its `_id` is what the
 * confirm link's token names.
 */
export interface ConsentAskDoc {
  _id: string;
  userId: string;
  projectId: string;
  contactId: string;
  email: string;
  runId: string;
  window: number;
  at: Date;
  /** Its email was queued (false: claimed, then left unsent for a neighbouring window's ask). */
  queued?: boolean;
  outbox: OutboxEntry[];
  outboxMinute?: number;
}

/**
 * One click of "Ask for permission": whose pending contacts, how many it set out to ask, and how
 * far it got. Written only by the process that runs it (no concurrent writer).
 */
export interface ConsentAskRunDoc {
  _id: string;
  userId: string;
  projectId: string;
  /** The saved segment asked; empty for a condition tree or the whole project. */
  segmentId: string;
  /** The condition tree asked, when no segment was named. */
  tree?: unknown;
  /** The 30-day window its asks are keyed by (domain/consent.ts `askWindow`). */
  window: number;
  /** Until it has finished: a restarted service goes on with the runs still running. */
  running: boolean;
  total: number;
  sent: number;
  skipped: number;
  startedAt: Date;
  finishedAt?: Date;
}

const askSchema = new Schema<ConsentAskDoc>(
  {
    _id: String,
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    contactId: { type: String, required: true },
    email: { type: String, required: true },
    runId: { type: String, required: true },
    window: { type: Number, required: true },
    at: { type: Date, required: true },
    queued: Boolean,
    outbox: outboxField,
    outboxMinute: outboxMinuteField,
  },
  { collection: "consent_asks", versionKey: false, minimize: false },
);
askSchema.index({ projectId: 1, window: 1 });
askSchema.index({ runId: 1 });

const runSchema = new Schema<ConsentAskRunDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    segmentId: { type: String, default: "" },
    tree: Schema.Types.Mixed,
    window: { type: Number, required: true },
    running: { type: Boolean, required: true },
    total: { type: Number, required: true },
    sent: { type: Number, default: 0 },
    skipped: { type: Number, default: 0 },
    startedAt: { type: Date, required: true },
    finishedAt: Date,
  },
  { collection: "consent_ask_runs", versionKey: false, minimize: false },
);
runSchema.index({ running: 1 });

export function consentAskModel(connection: Connection): Model<ConsentAskDoc> {
  return modelOn<ConsentAskDoc>(connection, "ConsentAsk", askSchema);
}
export function consentAskRunModel(connection: Connection): Model<ConsentAskRunDoc> {
  return modelOn<ConsentAskRunDoc>(connection, "ConsentAskRun", runSchema);
}

export type StoredConsentAsk = Omit<ConsentAskDoc, "outbox">;

/** The asks for permission (append-only) and their runs. */
export class ConsentAskRepository {
  constructor(
    readonly asks: Model<ConsentAskDoc>,
    readonly runs: Model<ConsentAskRunDoc>,
  ) {}

  /** The project's asks of the given windows (each read by indexed equality). */
  async inWindows(scope: Scope, windows: number[]): Promise<StoredConsentAsk[]> {
    const found = await Promise.all(
      windows.map((window) =>
        this.asks
          .find({ projectId: scope.projectId, window, userId: scope.userId }, { outbox: 0 })
          .lean<StoredConsentAsk[]>(),
      ),
    );
    return found.flat();
  }

  /**
   * Claims the contact's ask of a window, without its email yet (`queue` adds it).
   * @returns false when the contact was already asked in this window (the key was taken).
   */
  add(doc: Omit<ConsentAskDoc, "outbox" | "outboxMinute">): Promise<boolean> {
    return insertOnce(this.asks, { ...doc, outbox: [] });
  }

  /** Queues the email of an ask this process claimed (its only writer). */
  async queue(id: string, event: OutboxEntry): Promise<void> {
    await this.asks.updateOne(
      { _id: id },
      { $set: { outbox: [event], outboxMinute: outboxMinuteOf(event.time), queued: true } },
    );
  }

  /** The asks of these ids that exist. */
  byIds(ids: string[]): Promise<StoredConsentAsk[]> {
    return Promise.all(ids.map((id) => this.get(id))).then((found) =>
      found.filter((ask): ask is StoredConsentAsk => ask !== null),
    );
  }

  get(id: string): Promise<StoredConsentAsk | null> {
    return this.asks.findById(id, { outbox: 0 }).lean<StoredConsentAsk>();
  }

  async startRun(doc: ConsentAskRunDoc): Promise<ConsentAskRunDoc> {
    await this.runs.create(doc);
    return doc;
  }

  /** A run's asks. */
  ofRun(runId: string): Promise<StoredConsentAsk[]> {
    return this.asks.find({ runId }, { outbox: 0 }).lean<StoredConsentAsk[]>();
  }

  /** How many emails a run has queued (whichever process queued them). */
  async sentBy(runId: string): Promise<number> {
    return (await this.asks.find({ runId }, { queued: 1 }).lean()).filter((ask) => ask.queued).length;
  }

  /**
   * Progress of a run. `sent` is recounted from the asks, so two processes going on with one run
   * (after a restart) write the same figure.
   */
  async progress(id: string, change: { skipped: number; finishedAt?: Date }): Promise<void> {
    const sent = await this.sentBy(id);
    await this.runs.updateOne(
      { _id: id },
      { $set: { ...change, sent, ...(change.finishedAt ? { running: false } : {}) } },
    );
  }

  /** The runs a stopped process left unfinished. */
  running(): Promise<ConsentAskRunDoc[]> {
    return this.runs.find({ running: true }).lean<ConsentAskRunDoc[]>();
  }

  async run(scope: Scope, id: string): Promise<ConsentAskRunDoc | null> {
    const run = await this.runs.findById(id).lean<ConsentAskRunDoc>();
    return run && run.userId === scope.userId && run.projectId === scope.projectId ? run : null;
  }
}
