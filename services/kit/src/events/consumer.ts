import { setTimeout as sleep } from "node:timers/promises";
import { createRegistry, type DescMessage, fromBinary, type MessageShape } from "@bufbuild/protobuf";
import { file_crafter_events_v1_events } from "@crafter/proto/crafter/events/v1/events_pb";
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Connection } from "mongoose";
import type { Logger } from "pino";
import { insertOnce } from "../data/idioms";
import { metrics, observeGauge } from "../telemetry/metrics";
import type { Kafka, KafkaConsumer } from "./kafka";
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

/**
 * One handler per event type: handlers of the same type (several areas of a service listening to
 * one event) run in turn, in the order given. Each is idempotent, so when a later one fails the
 * retry repeats nothing the earlier ones did.
 */
export function handlerPerType(handlers: readonly EventHandler[]): Map<string, EventHandler> {
  const byType = new Map<string, EventHandler[]>();
  for (const handler of handlers) byType.set(handler.type, [...(byType.get(handler.type) ?? []), handler]);
  return new Map(
    [...byType].map(([type, group]) => [
      type,
      group.length === 1
        ? group[0]!
        : {
            type,
            schema: group[0]!.schema,
            async handle(data, meta) {
              for (const handler of group) await handler.handle(data, meta);
            },
          },
    ]),
  );
}

export interface ConsumerOptions {
  kafka: Kafka;
  groupId: string;
  topics: string[];
  /** Several handlers of one type run in turn (`handlerPerType`). */
  handlers: EventHandler[];
  /** Where processed `ce_id`s are kept (the service's own database). */
  connection: Connection;
  /** Used to send poison messages to `<topic>.dlq`. */
  publisher: Publisher;
  logger: Logger;
  /** Attempts before a message goes to the DLQ. Default 5 (backoff 250 ms doubling: ~4 s in all). */
  maxAttempts?: number;
  /** Messages handled at once, across partitions; one partition's are handled in order. Default 8. */
  concurrency?: number;
}

/** A running consumer: when it first holds its partitions, and how to stop it. */
export interface RunningConsumer {
  /**
   * Resolves at the consumer's first group join (JoinGroup and SyncGroup done): from then on it
   * holds its assigned partitions and fetches. Until then, events wait in their topics.
   */
  joined: Promise<void>;
  /** Stops fetching, lets the message in hand finish and commit, and leaves the group. */
  disconnect(): Promise<void>;
}

type Message = Awaited<ReturnType<KafkaConsumer["consume"]>> extends AsyncIterable<infer M> ? M : never;

/**
 * An idempotent consumer: a message whose `ce_id` this group already processed is skipped; a
 * failing handler is retried with backoff, and after `maxAttempts` the message goes to
 * `<topic>.dlq` with an `error` header and an error log line. Nothing is dropped silently.
 * Each partition's messages are handled in order, up to `concurrency` partitions at once, and
 * their offsets committed only after they are handled, so a crash re-delivers (at least once)
 * rather than skips; when the bookkeeping itself fails (the
 * database or the DLQ unreachable) the same message is retried until it succeeds or the consumer
 * stops. New groups start at the earliest offset.
 */
export async function startConsumer(options: ConsumerOptions): Promise<RunningConsumer> {
  const processed = processedEventModel(options.connection);
  const handlers = handlerPerType(options.handlers);
  const maxAttempts = options.maxAttempts ?? 5;
  const concurrency = Math.max(1, options.concurrency ?? 8);
  // Lag per partition (messages behind the high watermark), read from the broker every 10 s.
  const lag = new Map<string, { topic: string; partition: number; value: number }>();
  let consumer!: KafkaConsumer;
  let stream!: Awaited<ReturnType<KafkaConsumer["consume"]>>;
  let joinedOnce: () => void = () => undefined;
  const joined = new Promise<void>((resolve) => {
    joinedOnce = resolve;
  });
  /** A new member of the group and its message stream (the first one, and one after each stream failure). */
  async function subscribe(): Promise<void> {
    const next = options.kafka.consumer(options.groupId);
    // Listened to before consume(), which joins before it returns.
    next.once("consumer:group:join", (payload) => {
      options.logger.info({ group: options.groupId, memberId: payload.memberId }, "consumer joined its group");
      joinedOnce();
    });
    try {
      stream = await next.consume({
        topics: options.topics,
        mode: "committed",
        fallbackMode: "earliest",
        autocommit: false,
      });
    } catch (error) {
      await next.close(true).catch(() => undefined);
      throw error;
    }
    consumer = next;
    consumer.on("consumer:lag", (offsets) => {
      for (const [topic, partitions] of offsets) {
        for (const [partition, value] of partitions.entries()) {
          lag.set(`${topic}:${partition}`, { topic, partition, value: Number(value) });
        }
      }
    });
    consumer.on("consumer:lag:error", (error) => options.logger.debug({ err: error }, "consumer lag not read"));
    consumer.startLagMonitoring({ topics: options.topics }, 10_000);
  }
  await subscribe();
  observeGauge("crafter.events.consumer.lag", "Messages a consumer group is behind, per partition.", () =>
    [...lag.values()].map(({ topic, partition, value }) => [
      Math.max(0, value),
      { "messaging.destination.name": topic, "messaging.destination.partition.id": partition, group: options.groupId },
    ]),
  );

  async function handle(message: Message): Promise<void> {
    const topic = message.topic;
    const type = message.headers.get("ce_type") ?? "";
    const handler = handlers.get(type);
    const id = message.headers.get("ce_id");
    if (!handler || !id || !message.value) return;
    const markerId = `${options.groupId}:${id}`;

    const meta: EventMeta = {
      id,
      type,
      source: message.headers.get("ce_source") ?? "",
      time: message.headers.get("ce_time") ?? "",
      topic,
      key: message.key ?? "",
    };
    // A child of the producer's span: one trace from the request that wrote the event to here.
    const parent = propagation.extract(ROOT_CONTEXT, { traceparent: message.headers.get("traceparent") });
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
        const data = fromBinary(schema, message.value);
        let lastError: unknown;
        for (let attempt = 1; attempt <= maxAttempts; attempt++) {
          try {
            await handler.handle(data, meta);
            lastError = undefined;
            break;
          } catch (error) {
            lastError = error;
            options.logger.warn({ err: error, ce_id: id, type, attempt }, "event handler failed");
            if (attempt < maxAttempts) await sleep(250 * 2 ** (attempt - 1));
          }
        }
        if (lastError) {
          const reason = lastError instanceof Error ? lastError.message : String(lastError);
          const headers: Record<string, string> = { error: reason, ce_group: options.groupId };
          for (const [name, value] of message.headers) if (value !== undefined) headers[name] = value;
          await options.publisher.publish(dlqTopic(topic), meta.key, message.value, headers);
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
  }

  let stopping = false;
  /** Handles one message until it is processed (retrying while the bookkeeping fails), then commits it. */
  async function settle(message: Message): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (stopping) return;
      try {
        await handle(message);
        break;
      } catch (error) {
        if (stopping) return;
        options.logger.error({ err: error, topic: message.topic, attempt }, "event not processed; retrying");
        await sleep(Math.min(30_000, 500 * 2 ** Math.min(attempt - 1, 6)));
      }
    }
    commit(message);
  }
  // Partitions are handled side by side and each one in order: events of one key share a partition,
  // so their order holds, while a slow handler on one partition no longer holds up the others.
  const tails = new Map<string, Promise<void>>();
  let handling = 0;
  let roomMade: (() => void) | undefined;
  const consume = async () => {
    try {
      for await (const message of stream) {
        if (stopping) return;
        while (handling >= concurrency) {
          await new Promise<void>((resolve) => {
            roomMade = resolve;
          });
        }
        const key = `${message.topic}:${message.partition}`;
        handling++;
        const tail = (tails.get(key) ?? Promise.resolve()).then(() => settle(message));
        tails.set(key, tail);
        void tail.finally(() => {
          handling--;
          if (tails.get(key) === tail) tails.delete(key);
          roomMade?.();
          roomMade = undefined;
        });
      }
    } finally {
      // A failed stream's member leaves only after what it took is handled (or given up when stopping).
      await Promise.allSettled([...tails.values()]);
    }
  };

  // The newest handled message per partition whose commit has not succeeded yet. A commit that
  // fails (the coordinator moving after an outage) is made again every 5 s while this stream
  // lives: otherwise a partition that receives nothing more stays behind in its group's committed
  // offsets (shown as lag, re-delivered at the next rebalance) although every event was handled.
  const uncommitted = new Map<string, Message>();
  const inFlight = new Set<Message>();
  function commit(message: Message): void {
    const key = `${message.topic}:${message.partition}`;
    uncommitted.set(key, message);
    inFlight.add(message);
    // Not awaited: commits of one partition coalesce into one request in flight, and a commit
    // never made only means a re-delivery, which the processed markers absorb.
    Promise.resolve(message.commit())
      .then(
        () => {
          if (uncommitted.get(key) === message) uncommitted.delete(key);
        },
        (error: unknown) =>
          options.logger.warn({ err: error, topic: message.topic }, "offset commit failed; trying again in 5 s"),
      )
      .finally(() => inFlight.delete(message));
  }
  const recommit = setInterval(() => {
    for (const message of uncommitted.values()) if (!inFlight.has(message)) commit(message);
  }, 5000);
  recommit.unref();
  // A stream that fails (e.g. its offsets could not be read when Kafka came back from an outage)
  // ends the iteration, while its member stays in the group and keeps its partitions, whose events
  // would then wait forever: that member leaves, and a new one joins and goes on from the commits.
  const loop = (async () => {
    for (let failures = 0; !stopping; ) {
      try {
        await consume();
        if (stopping) return;
        throw new Error("the consumer's stream ended");
      } catch (error) {
        if (stopping) return;
        failures++;
        options.logger.error({ err: error, group: options.groupId, failures }, "consumer stream failed; rejoining");
        consumer.stopLagMonitoring();
        await stream.close().catch(() => undefined);
        await consumer.close(true).catch(() => undefined);
        // The next member goes on from the committed offsets, re-delivering what was not committed.
        uncommitted.clear();
        for (let attempt = 1; !stopping; attempt++) {
          await sleep(Math.min(30_000, 500 * 2 ** Math.min(attempt - 1, 6)));
          try {
            await subscribe();
            break;
          } catch (subscribeError) {
            options.logger.warn({ err: subscribeError, group: options.groupId, attempt }, "consumer rejoin failed");
          }
        }
      }
    }
  })();

  return {
    joined,
    async disconnect() {
      stopping = true;
      clearInterval(recommit);
      consumer.stopLagMonitoring();
      await stream.close().catch(() => undefined);
      await loop.catch(() => undefined);
      await consumer.close().catch(() => consumer.close(true));
    },
  };
}
