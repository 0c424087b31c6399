import { createRegistry, type DescMessage, fromBinary, type MessageShape } from "@bufbuild/protobuf";
import { file_crafter_events_v1_events } from "@crafter/proto/crafter/events/v1/events_pb";
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Consumer, IHeaders, Kafka } from "kafkajs";
import type { Connection } from "mongoose";
import type { Logger } from "pino";
import { insertOnce } from "../data/idioms";
import { metrics, observeGauge } from "../telemetry/metrics";
import { processedEventModel } from "./outbox";
import type { Publisher } from "./publisher";
import { dlqTopic } from "./topics";

const registry = createRegistry(file_crafter_events_v1_events);
const tracer = trace.getTracer("crafter-events");

export interface EventMeta {
  id: string;
  type: string;
  source: string;
  time: string;
  topic: string;
  key: string;
}

export interface EventHandler {
  type: string;
  /** The message's schema, to decode it (events of any file under proto/crafter/events/v1). */
  schema?: DescMessage;
  handle(data: unknown, meta: EventMeta): Promise<void>;
}

/** Binds a handler to one event message type; the payload arrives decoded and typed. */
export function on<S extends DescMessage>(
  schema: S,
  handle: (event: MessageShape<S>, meta: EventMeta) => Promise<void>,
): EventHandler {
  return { type: schema.typeName, schema, handle: (data, meta) => handle(data as MessageShape<S>, meta) };
}

export interface ConsumerOptions {
  kafka: Kafka;
  groupId: string;
  topics: string[];
  handlers: EventHandler[];
  /** Where processed `ce_id`s are kept (the service's own database). */
  connection: Connection;
  /** Used to send poison messages to `<topic>.dlq`. */
  publisher: Publisher;
  logger: Logger;
  /** Attempts before a message goes to the DLQ. Default 5 (backoff 250 ms doubling: ~4 s in all). */
  maxAttempts?: number;
}

const header = (headers: IHeaders | undefined, name: string): string | undefined => {
  const value = headers?.[name];
  if (value === undefined) return undefined;
  return Array.isArray(value) ? String(value[0]) : String(value);
};

/** A running consumer and when it first holds its partitions. */
export type RunningConsumer = Consumer & {
  /**
   * Resolves at the consumer's first group join (kafkajs GROUP_JOIN, after JoinGroup and
   * SyncGroup): from then on it holds its assigned partitions and fetches. Until then, events sit in
   * their topics; `consumer.run()` returns long before, and the join may wait for a rebalance
   * (members of a previous process must rejoin or time out).
   */
  joined: Promise<void>;
};

/**
 * An idempotent consumer: a message whose `ce_id` this group already processed is skipped; a
 * failing handler is retried with backoff, and after `maxAttempts` the message goes to
 * `<topic>.dlq` with an `error` header and an error log line. Nothing is dropped silently.
 */
export async function startConsumer(options: ConsumerOptions): Promise<RunningConsumer> {
  const processed = processedEventModel(options.connection);
  const handlers = new Map(options.handlers.map((handler) => [handler.type, handler]));
  const maxAttempts = options.maxAttempts ?? 5;
  const consumer = options.kafka.consumer({ groupId: options.groupId, allowAutoTopicCreation: true });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: options.topics, fromBeginning: true });
  } catch (error) {
    await consumer.disconnect();
    throw error;
  }
  // Lag per partition (messages behind the high watermark), from kafkajs' batch events: free,
  // and a stuck handler keeps the lag its batch started with.
  const lag = new Map<string, { topic: string; partition: number; value: number }>();
  const noteLag = (payload: { topic: string; partition: number }, value: number) =>
    lag.set(`${payload.topic}:${payload.partition}`, { topic: payload.topic, partition: payload.partition, value });
  consumer.on(consumer.events.START_BATCH_PROCESS, ({ payload }) =>
    noteLag(payload, Number(payload.highWatermark) - Number(payload.firstOffset)),
  );
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => noteLag(payload, Number(payload.offsetLag)));
  observeGauge("crafter.events.consumer.lag", "Messages a consumer group is behind, per partition.", () =>
    [...lag.values()].map(({ topic, partition, value }) => [
      Math.max(0, value),
      { "messaging.destination.name": topic, "messaging.destination.partition.id": partition, group: options.groupId },
    ]),
  );

  // Listened to before run(), which may join before it returns.
  const joined = new Promise<void>((resolve) => {
    const remove = consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      remove();
      options.logger.info(
        { group: options.groupId, assignment: payload.memberAssignment, durationMs: payload.duration },
        "consumer joined its group",
      );
      resolve();
    });
  });

  await consumer.run({
    eachMessage: async ({ topic, message }) => {
      const type = header(message.headers, "ce_type") ?? "";
      const handler = handlers.get(type);
      const id = header(message.headers, "ce_id");
      if (!handler || !id || !message.value) return;
      const markerId = `${options.groupId}:${id}`;

      const meta: EventMeta = {
        id,
        type,
        source: header(message.headers, "ce_source") ?? "",
        time: header(message.headers, "ce_time") ?? "",
        topic,
        key: message.key?.toString() ?? "",
      };
      // A child of the producer's span: one trace from the request that wrote the event to here.
      const parent = propagation.extract(ROOT_CONTEXT, { traceparent: header(message.headers, "traceparent") });
      const span = tracer.startSpan(
        `${topic} process`,
        {
          kind: SpanKind.CONSUMER,
          attributes: {
            "messaging.system": "kafka",
            "messaging.operation.type": "process",
            "messaging.destination.name": topic,
            "messaging.consumer.group.name": options.groupId,
            "messaging.message.id": id,
            "cloudevents.event_type": type,
          },
        },
        parent,
      );
      const started = performance.now();
      let outcome = "ok";
      try {
        await context.with(trace.setSpan(parent, span), async () => {
          if (await processed.exists({ _id: markerId })) {
            outcome = "duplicate";
            return;
          }
          const schema = handler.schema ?? registry.getMessage(type);
          if (!schema) throw new Error(`unknown event type ${type}`);
          const data = fromBinary(schema, message.value!);
          let lastError: unknown;
          for (let attempt = 1; attempt <= maxAttempts; attempt++) {
            try {
              await handler.handle(data, meta);
              lastError = undefined;
              break;
            } catch (error) {
              lastError = error;
              options.logger.warn({ err: error, ce_id: id, type, attempt }, "event handler failed");
              if (attempt < maxAttempts) await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** (attempt - 1)));
            }
          }
          if (lastError) {
            const reason = lastError instanceof Error ? lastError.message : String(lastError);
            const headers: Record<string, string> = { error: reason, ce_group: options.groupId };
            for (const [name, value] of Object.entries(message.headers ?? {})) {
              if (value !== undefined) headers[name] = String(value);
            }
            await options.publisher.publish(dlqTopic(topic), meta.key, message.value!, headers);
            options.logger.error({ ce_id: id, type, topic, err: lastError }, "event sent to DLQ after retries");
            span.setStatus({ code: SpanStatusCode.ERROR, message: reason });
            outcome = "dlq";
            metrics.eventsDlq.add(1, { "messaging.destination.name": topic, group: options.groupId });
          }
          await insertOnce(processed, { _id: markerId });
        });
      } catch (error) {
        outcome = "error";
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
        if (outcome !== "duplicate") {
          metrics.eventProcessDuration.record((performance.now() - started) / 1000, {
            "messaging.destination.name": topic,
            "cloudevents.event_type": type,
            outcome,
          });
        }
      }
    },
  });
  return Object.assign(consumer, { joined });
}
