import { createRegistry, type DescMessage, fromBinary, type MessageShape } from "@bufbuild/protobuf";
import { file_crafter_events_v1_events } from "@crafter/proto/crafter/events/v1/events_pb";
import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Consumer, IHeaders, Kafka } from "kafkajs";
import type { Connection } from "mongoose";
import type { Logger } from "pino";
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
  handle(data: unknown, meta: EventMeta): Promise<void>;
}

/** Binds a handler to one event message type; the payload arrives decoded and typed. */
export function on<S extends DescMessage>(
  schema: S,
  handle: (event: MessageShape<S>, meta: EventMeta) => Promise<void>,
): EventHandler {
  return { type: schema.typeName, handle: (data, meta) => handle(data as MessageShape<S>, meta) };
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

/**
 * An idempotent consumer: a message whose `ce_id` this group already processed is skipped; a
 * failing handler is retried with backoff, and after `maxAttempts` the message goes to
 * `<topic>.dlq` with an `error` header and an error log line. Nothing is dropped silently.
 */
export async function startConsumer(options: ConsumerOptions): Promise<Consumer> {
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
  await consumer.run({
    eachMessage: async ({ topic, message }) => {
      const type = header(message.headers, "ce_type") ?? "";
      const handler = handlers.get(type);
      const id = header(message.headers, "ce_id");
      if (!handler || !id || !message.value) return;
      const markerId = `${options.groupId}:${id}`;
      if (await processed.exists({ _id: markerId })) return;

      const meta: EventMeta = {
        id,
        type,
        source: header(message.headers, "ce_source") ?? "",
        time: header(message.headers, "ce_time") ?? "",
        topic,
        key: message.key?.toString() ?? "",
      };
      const parent = propagation.extract(context.active(), { traceparent: header(message.headers, "traceparent") });
      const span = tracer.startSpan(
        `${topic} process`,
        {
          kind: SpanKind.CONSUMER,
          attributes: { "messaging.system": "kafka", "messaging.destination.name": topic, "messaging.message.id": id },
        },
        parent,
      );
      try {
        await context.with(trace.setSpan(parent, span), async () => {
          const schema = registry.getMessage(type);
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
          }
        });
        await processed.create({ _id: markerId }).catch((error: { code?: number }) => {
          if (error.code !== 11000) throw error;
        });
      } finally {
        span.end();
      }
    },
  });
  return consumer;
}
