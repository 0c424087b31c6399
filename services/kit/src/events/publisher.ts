import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { type Kafka, Partitioners, type Producer } from "kafkajs";
import { metrics } from "../telemetry/metrics";

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
 * A kafkajs producer. Its retries may duplicate a message; consumers deduplicate by `ce_id`, so
 * delivery is at least once end to end.
 */
export async function createPublisher(kafka: Kafka): Promise<Publisher> {
  const producer: Producer = kafka.producer({
    allowAutoTopicCreation: true,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
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
        await producer.send({ topic, acks: -1, messages: [{ key, value, headers: out }] });
        metrics.eventsPublished.add(1, { "messaging.destination.name": topic });
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    },
    disconnect: () => producer.disconnect(),
  };
}
