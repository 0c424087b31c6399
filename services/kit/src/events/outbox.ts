import { randomUUID } from "node:crypto";
import { create, type DescMessage, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import { context, propagation } from "@opentelemetry/api";
import { type Connection, type Model, Schema } from "mongoose";
import type { Logger } from "pino";
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

export interface OutboxRelayOptions {
  models: Model<any>[];
  publisher: Publisher;
  source: string;
  logger: Logger;
  /** Poll period in ms; `kick()` publishes sooner after a write. Default 500. */
  intervalMs?: number;
}

export interface OutboxRelay {
  /** Asks the relay to run now (call after a write that pushed an entry). */
  kick(): void;
  stop(): Promise<void>;
}

/**
 * Publishes outbox entries of the given models to Kafka, in order per document, then removes them.
 * At least once: a crash between publish and removal publishes again, and consumers deduplicate
 * by `ce_id`. Several replicas may relay the same entry; that is the same case.
 */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const interval = options.intervalMs ?? 500;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const relayOnce = async () => {
    for (const model of options.models) {
      for (;;) {
        const docs = await model
          .find({ "outbox.0": { $exists: true } }, { outbox: 1 })
          .limit(50)
          .lean<{ _id: unknown; outbox: OutboxEntry[] }[]>();
        if (docs.length === 0) break;
        let popped = 0;
        for (const doc of docs) {
          for (const entry of doc.outbox) {
            await options.publisher.publish(entry.topic, entry.key, toBuffer(entry.payload), {
              ce_id: entry.id,
              ce_type: entry.type,
              ce_source: options.source,
              ce_time: new Date(entry.time).toISOString(),
              ...(entry.traceparent ? { traceparent: entry.traceparent } : {}),
            });
            // Pop the head only while it is still this entry: events are appended, never
            // prepended, so this cannot drop one. ($pull with a condition is a silent no-op on
            // FerretDB 1.24.)
            const result = await model.updateOne({ _id: doc._id, "outbox.0.id": entry.id }, { $pop: { outbox: -1 } });
            popped += result.modifiedCount;
          }
        }
        // Never spin: if nothing could be removed, wait for the next tick.
        if (popped === 0) throw new Error("outbox entries were published but could not be removed");
      }
    }
  };

  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = relayOnce()
      .catch((error) => options.logger.error({ err: error }, "outbox relay failed; will retry"))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          run();
        }
      });
  };

  const timer = setInterval(run, interval);
  run();
  return {
    kick: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** The processed-event marker of an idempotent consumer: `_id` = `<group>:<ce_id>`. */
interface ProcessedEvent {
  _id: string;
  at: Date;
}

export function processedEventModel(connection: Connection): Model<ProcessedEvent> {
  return (
    (connection.models.ProcessedEvent as Model<ProcessedEvent> | undefined) ??
    connection.model<ProcessedEvent>(
      "ProcessedEvent",
      new Schema<ProcessedEvent>({ _id: String, at: { type: Date, default: Date.now } }),
      "processed_events",
    )
  );
}
