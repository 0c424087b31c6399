import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { metrics } from "../telemetry/metrics";
import type { Kafka } from "./kafka";

const tracer = trace.getTracer("crafter-events");

export interface Publisher {
  /**
   * Sends one message and resolves once the broker acknowledged it (acks = all). A PRODUCER span,
   * child of the active context, wraps the send and its context goes out as the `traceparent`
   * header (replacing one in `headers`); the relay makes the original request's context active.
   */
  publish(topic: string, key: string, value: Buffer, headers: Record<string, string>): Promise<void>;
  disconnect(): Promise<void>;
}

/**
 * A producer that waits for every in-sync replica (acks = all). Its retries may duplicate a
 * message; consumers deduplicate by `ce_id`, so delivery is at least once end to end. Keys are
 * partitioned with murmur2, as the Java client and kafkajs do, so an aggregate keeps its partition.
 */
export async function createPublisher(kafka: Kafka): Promise<Publisher> {
  const producer = kafka.producer();
  return {
    async publish(topic, key, value, headers) {
      const span = tracer.startSpan(`${topic} publish`, {
        kind: SpanKind.PRODUCER,
        attributes: {
          "messaging.system": "kafka",
          "messaging.operation.type": "send",
          "messaging.destination.name": topic,
          ...(headers.ce_id ? { "messaging.message.id": headers.ce_id } : {}),
        },
      });
      const out = { ...headers };
      propagation.inject(trace.setSpan(context.active(), span), out);
      try {
        await producer.send({ acks: -1, messages: [{ topic, key, value, headers: out }] });
        metrics.eventsPublished.add(1, { "messaging.destination.name": topic });
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    },
    disconnect: () => producer.close(),
  };
}
