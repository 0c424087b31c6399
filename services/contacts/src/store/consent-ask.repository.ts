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
  confirmedAt?: Date;
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
    confirmedAt: Date,
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

  /** @returns false when the contact was already asked in this window (the key was taken): no email. */
  add(doc: Omit<ConsentAskDoc, "outbox" | "outboxMinute">, event: OutboxEntry): Promise<boolean> {
    return insertOnce(this.asks, { ...doc, outbox: [event], outboxMinute: outboxMinuteOf(event.time) });
  }

  get(id: string): Promise<StoredConsentAsk | null> {
    return this.asks.findById(id, { outbox: 0 }).lean<StoredConsentAsk>();
  }

  async startRun(doc: ConsentAskRunDoc): Promise<ConsentAskRunDoc> {
    await this.runs.create(doc);
    return doc;
  }

  /** How many asks a run has recorded (whichever process made them). */
  async sentBy(runId: string): Promise<number> {
    return (await this.asks.find({ runId }, { _id: 1 }).lean()).length;
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
