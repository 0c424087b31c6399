import { randomUUID } from "node:crypto";
import { create, type DescMessage, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import { context, propagation, ROOT_CONTEXT } from "@opentelemetry/api";
import { core } from "@opentelemetry/sdk-node";
import { type Connection, type Model, Schema } from "mongoose";
import type { Logger } from "pino";
import { insertEachOnce } from "../data/idioms";
import { modelOn } from "../data/mongo";
import { observeGauge } from "../telemetry/metrics";
import type { Publisher } from "./publisher";

/** An event waiting in its aggregate's document until the relay has published it. */
export interface OutboxEntry {
  /** The CloudEvents id (`ce_id`); consumers deduplicate on it. */
  id: string;
  topic: string;
  key: string;
  /** Full protobuf message name, e.g. crafter.events.v1.UserRegistered (`ce_type`). */
  type: string;
  payload: Buffer;
  time: Date;
  /** W3C trace context of the request that wrote the entry; the relay publishes in it. */
  traceparent?: string;
}

export const outboxEntrySchema = new Schema<OutboxEntry>(
  {
    id: { type: String, required: true },
    topic: { type: String, required: true },
    key: { type: String, required: true },
    type: { type: String, required: true },
    payload: { type: Buffer, required: true },
    time: { type: Date, required: true },
    traceparent: String,
  },
  { _id: false },
);

/** The field every aggregate with events carries: `outbox: { type: [outboxEntrySchema], default: [] }`. */
export const outboxField = { type: [outboxEntrySchema], default: () => [] };

/**
 * Optional top-level field of an aggregate: the minute (ms since the epoch / 60,000, floored) of
 * its newest outbox entry, indexed. The relay's frequent poll then finds recent entries by
 * equality on it, which the database filters itself, instead of a range over `outbox.time`,
 * which it may not push down (data/idioms.ts) and answers by decoding the whole collection on
 * every poll and kick: minutes on a 100,000-entry ledger under load. Set it with the entry
 * (`$set` beside the `$push`, or in the insert).
 */
export const OUTBOX_MINUTE = "outboxMinute";
export const outboxMinuteField = { type: Number, index: true } as const;
export const outboxMinuteOf = (time: Date): number => Math.floor(time.getTime() / 60_000);

/**
 * Builds an outbox entry to write in the same document update as the change it describes
 * (`$push: { outbox: entry }`), so the event is committed exactly when the change is.
 */
export function outboxEntry<S extends DescMessage>(
  topic: string,
  key: string,
  schema: S,
  data: MessageInitShape<S>,
): OutboxEntry {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return {
    id: randomUUID(),
    topic,
    key,
    type: schema.typeName,
    payload: Buffer.from(toBinary(schema, create(schema, data))),
    time: new Date(),
    traceparent: carrier.traceparent,
  };
}

/** A stored payload comes back from `.lean()` as a BSON Binary, or as a Buffer. */
function toBuffer(payload: unknown): Buffer {
  if (Buffer.isBuffer(payload)) return payload;
  const binary = payload as { buffer?: Uint8Array };
  if (binary.buffer instanceof Uint8Array) return Buffer.from(binary.buffer);
  throw new Error("outbox payload is not binary");
}

/** A model whose documents carry `outbox`; their other fields differ per service. */
// biome-ignore lint/suspicious/noExplicitAny: heterogeneous models; the relay reads only `outbox`.
export type OutboxModel = Model<any>;

export interface OutboxRelayOptions {
  models: OutboxModel[];
  publisher: Publisher;
  source: string;
  logger: Logger;
  /**
   * Poll period in ms; `kick()` publishes right after a write, so the poll only catches entries a
   * crashed process left behind. Default 5000: each poll is a range query the database may not
   * push down (data/idioms.ts), and polling every 500 ms kept it busy at 1.5 cores with six idle services.
   */
  intervalMs?: number;
  /** How far back each poll looks for entries, in ms. Default 5 minutes. */
  lookbackMs?: number;
  /** Period of the full scan that catches entries older than the lookback, in ms. Default 10 minutes. */
  fullScanMs?: number;
}

export interface OutboxRelay {
  /** Asks the relay to run now (call after a write that pushed an entry). */
  kick(): void;
  /**
   * Resolves when a pass over every model has finished without error (the first one at start, or
   * the first after Kafka or the database came back): what was waiting is published.
   */
  firstPass: Promise<void>;
  stop(): Promise<void>;
}

interface PublishedMarker {
  _id: string;
  at: Date;
}

function publishedModel(connection: Connection): Model<PublishedMarker> {
  return modelOn<PublishedMarker>(
    connection,
    "OutboxPublished",
    new Schema<PublishedMarker>({ _id: String, at: { type: Date, default: Date.now } }),
    "outbox_published",
  );
}

/**
 * Publishes outbox entries of the given models to Kafka, in order per document, at least once.
 *
 * The relay never writes to the aggregate's document: updates of one document are not isolated on
 * every backend we run (data/idioms.ts), so a removal could race the service's next `$push` and lose an event.
 * Instead each published entry gets a marker in `outbox_published` (an insert guarded by the unique
 * `_id`, which is atomic everywhere). Each poll looks at entries younger than `lookbackMs`; a full
 * scan every `fullScanMs` (for models not polled by minute, a first one `intervalMs` × 6 after
 * start) catches anything older, on its own, so neither the polls nor readiness (`firstPass`) wait for it. A crash between publish and marker
 * publishes again; consumers deduplicate by `ce_id`. Entries stay in their document (a handful per
 * aggregate).
 */
/** Marker reads in flight at once per document. */
const MARKER_READS = 16;
/** Markers written in one insert: a crash before it publishes at most this many entries again. */
const MARKER_BATCH = 100;
/** Entry ids a relay remembers having marked (about 4 MB at 100,000). */
const MARKED_HERE = 100_000;

/** Every minute number from `since`'s to now's. */
function minutesSince(since: Date): number[] {
  const minutes: number[] = [];
  for (let minute = outboxMinuteOf(since); minute <= outboxMinuteOf(new Date()); minute++) minutes.push(minute);
  return minutes;
}

export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const interval = options.intervalMs ?? 5000;
  const lookback = options.lookbackMs ?? 5 * 60_000;
  const fullScanEvery = options.fullScanMs ?? 10 * 60_000;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let passed!: () => void;
  const firstPass = new Promise<void>((resolve) => {
    passed = resolve;
  });
  /** Ids of entries this relay published and marked, oldest first, at most MARKED_HERE. */
  const markedHere = new Set<string>();
  const remember = (id: string) => {
    markedHere.add(id);
    if (markedHere.size > MARKED_HERE) markedHere.delete(markedHere.values().next().value as string);
  };
  /** Per model, when the last pass that finished started (ms). */
  const doneUntil = new Map<OutboxModel, number>();

  // Unpublished entries per collection as of the last pass (those seen in its window); a pass that
  // fails leaves the count of what it found, so a stuck relay shows a backlog.
  const backlog = new Map<string, number>();
  observeGauge("crafter.outbox.backlog", "Outbox entries not yet published to Kafka.", () =>
    [...backlog].map(([collection, count]) => [count, { collection, service: options.source }]),
  );

  /** Publishes what is pending in one model; `tally.pending` counts what is still unpublished. */
  const relayModel = async (model: OutboxModel, full: boolean, tally: { pending: number }) => {
    const published = publishedModel(model.db);
    const started = Date.now();
    const since = new Date(started - lookback);
    const byMinute = !full && model.schema.path(OUTBOX_MINUTE) !== undefined;
    // By minute, a pass looks only at the minutes since the last pass that finished (from a minute
    // before it started, for inserts that straddled it), so a kick after each write costs one or
    // two indexed queries, not the whole lookback.
    const from = byMinute ? new Date(Math.max(since.getTime(), (doneUntil.get(model) ?? 0) - 60_000)) : since;
    const filters = full
      ? [{ "outbox.0": { $exists: true } }]
      : byMinute
        ? minutesSince(from).map((minute) => ({ [OUTBOX_MINUTE]: minute }))
        : [{ "outbox.time": { $gte: since } }];
    for (const filter of filters) await relayDocs(model, filter, full, since, published, tally);
    doneUntil.set(model, started);
  };

  const relayDocs = async (
    model: OutboxModel,
    filter: Record<string, unknown>,
    full: boolean,
    since: Date,
    published: ReturnType<typeof publishedModel>,
    tally: { pending: number },
  ) => {
    const cursor = model.find(filter, { outbox: 1 }).lean<{ _id: unknown; outbox: OutboxEntry[] }>().cursor();
    for await (const doc of cursor) {
      const entries = full ? doc.outbox : doc.outbox.filter((entry) => new Date(entry.time) >= since);
      if (entries.length === 0) continue;
      // Entries this relay marked in an earlier pass need no marker read (a kick after each batch of
      // a big write finds the same documents again within the minute). The others: one read by
      // `_id` per entry: `_id` equality is pushed down but not `$in` (ADR 0001), which read the
      // whole (ever-growing) marker collection once per document and held a restarted relay for minutes.
      // At most MARKER_READS at once: each holds a database connection, and a document may carry
      // a thousand entries (an import's batch).
      const unknown = entries.filter((entry) => !markedHere.has(entry.id));
      const done = new Set<string>();
      for (let at = 0; at < unknown.length; at += MARKER_READS) {
        const markers = await Promise.all(
          unknown
            .slice(at, at + MARKER_READS)
            .map((entry) => published.findById(entry.id, { _id: 1 }).lean<{ _id: string }>()),
        );
        for (const marker of markers) if (marker) done.add(marker._id);
      }
      for (const entry of entries) if (markedHere.has(entry.id)) done.add(entry.id);
      tally.pending += entries.filter((entry) => !done.has(entry.id)).length;
      /** Published, their markers not yet written (written together, at most MARKER_BATCH at a time). */
      let unmarked: string[] = [];
      const mark = async () => {
        if (unmarked.length === 0) return;
        await insertEachOnce(
          published,
          unmarked.map((id) => ({ _id: id })),
        );
        for (const id of unmarked) remember(id);
        tally.pending -= unmarked.length;
        unmarked = [];
      };
      for (const entry of entries) {
        if (done.has(entry.id)) continue;
        // The request's context, not the poll's: the trace goes on from the write to the consumers.
        const origin = entry.traceparent
          ? propagation.extract(ROOT_CONTEXT, { traceparent: entry.traceparent })
          : ROOT_CONTEXT;
        await context.with(origin, () =>
          options.publisher.publish(entry.topic, entry.key, toBuffer(entry.payload), {
            ce_id: entry.id,
            ce_type: entry.type,
            ce_source: options.source,
            ce_time: new Date(entry.time).toISOString(),
            ...(entry.traceparent ? { traceparent: entry.traceparent } : {}),
          }),
        );
        unmarked.push(entry.id);
        if (unmarked.length >= MARKER_BATCH) await mark();
      }
      await mark();
    }
  };

  const relayOnce = async () => {
    for (const model of options.models) {
      const tally = { pending: 0 };
      try {
        await relayModel(model, false, tally);
      } finally {
        backlog.set(model.collection.collectionName, tally.pending);
      }
    }
  };

  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    // The polls themselves are not traced (two queries every few seconds per service would drown the
    // traces); each publish runs in its entry's own context.
    running = context
      .with(core.suppressTracing(ROOT_CONTEXT), relayOnce)
      .then(() => passed())
      .catch((error) => options.logger.error({ err: error }, "outbox relay failed; will retry"))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };

  // The whole-collection scan (entries older than the lookback, left by a crash or a long Kafka
  // outage) decodes every document and reads a marker per entry it holds (data/idioms.ts): minutes
  // on a big ledger or contact list. So it runs on its own, every fullScanMs, never delaying the
  // polls or a restarted replica's readiness; models not polled by minute get a first one soon
  // after start (those polled by minute, the big ledgers, wait for the period).
  const byMinute = (model: OutboxModel) => model.schema.path(OUTBOX_MINUTE) !== undefined;
  let sweeping: Promise<void> | undefined;
  const sweep = (models: OutboxModel[]) => {
    if (stopped || sweeping) return;
    sweeping = context
      .with(core.suppressTracing(ROOT_CONTEXT), async () => {
        for (const model of models) await relayModel(model, true, { pending: 0 });
      })
      .catch((error) => options.logger.error({ err: error }, "outbox sweep failed; will retry"))
      .finally(() => {
        sweeping = undefined;
      });
  };

  const timer = setInterval(run, interval);
  const firstSweep = setTimeout(
    () => sweep(options.models.filter((model) => !byMinute(model))),
    Math.min(fullScanEvery, interval * 6),
  );
  const sweeper = setInterval(() => sweep(options.models), fullScanEvery);
  run();
  return {
    kick: run,
    firstPass,
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(firstSweep);
      clearInterval(sweeper);
      await running;
      await sweeping;
    },
  };
}

interface ProcessedEvent {
  _id: string;
  at: Date;
}

/** The processed-event marker of an idempotent consumer: `_id` = `<group>:<ce_id>`. */
export function processedEventModel(connection: Connection): Model<ProcessedEvent> {
  return modelOn<ProcessedEvent>(
    connection,
    "ProcessedEvent",
    new Schema<ProcessedEvent>({ _id: String, at: { type: Date, default: Date.now } }),
    "processed_events",
  );
}
