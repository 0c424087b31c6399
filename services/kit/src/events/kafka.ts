import { setTimeout as sleep } from "node:timers/promises";
import { Admin, Consumer, compatibilityPartitioner, findErrorBy, Producer } from "@platformatic/kafka";
import type { Logger } from "pino";
import { splitList } from "../config/config";
import { DEFAULT_PARTITIONS, SERVICE_TOPICS, TOPIC_PARTITIONS } from "./topology.gen";

/** The deserialised shape of a consumed message: string key and headers, the value's raw bytes. */
export type KafkaConsumer = Consumer<string, Buffer, string, string>;
/** A producer of raw-byte values with string keys and headers. */
export type KafkaProducer = Producer<string, Buffer, string, string>;

/**
 * The service's Kafka connection settings and a factory for its clients (@platformatic/kafka: pure
 * TypeScript, maintained; docs/adr/0003). Each client opens its own connections; close each with
 * `close()`. Retries: 8, 200 ms apart, as the services' other clients.
 */
export interface Kafka {
  readonly clientId: string;
  readonly brokers: string[];
  readonly logger: Logger;
  admin(): Admin;
  /** A consumer in `groupId`: string keys and headers, values as the bytes that were sent. */
  consumer(groupId: string): KafkaConsumer;
  producer(): KafkaProducer;
}

const bytes = (data?: Buffer) => data;
const text = (data?: Buffer | string) => (data === undefined ? undefined : data.toString());
const textBytes = (data?: string) => (data === undefined ? undefined : Buffer.from(data));

/**
 * Connection settings for the service's Kafka clients; `brokers` is a comma-separated list.
 * `sessionTimeoutMs` (default 30,000, the broker accepts 6,000–1,800,000): how long a killed
 * member holds its group's partitions before the group rebalances without it.
 */
export function createKafka(brokers: string, clientId: string, logger: Logger, sessionTimeoutMs = 30_000): Kafka {
  const base = { clientId, bootstrapBrokers: splitList(brokers), retries: 8, retryDelay: 200 };
  return {
    clientId,
    brokers: base.bootstrapBrokers,
    logger,
    admin: () => new Admin(base),
    consumer: (groupId) => {
      const consumer = new Consumer({
        ...base,
        groupId,
        // A member of a killed process holds the group's next join (and so a restarted service's
        // readiness) until its session times out: 30 s by default, as kafkajs had, not this client's
        // 60 s, so a restart is ready well within scripts/stack.mjs's 60 s and the chart's startup probe.
        sessionTimeout: sessionTimeoutMs,
        heartbeatInterval: Math.min(3000, Math.floor(sessionTimeoutMs / 3)),
        rebalanceTimeout: 60_000,
        deserializers: { key: text, value: bytes, headerKey: text, headerValue: text },
      }) as KafkaConsumer;
      // Heartbeat and rejoin failures are retried by the client; an unheard 'error' would end the process.
      consumer.on("error", (error: Error) => logger.warn({ err: error, group: groupId }, "kafka consumer error"));
      return consumer;
    },
    producer: () =>
      new Producer({
        ...base,
        serializers: { key: textBytes, value: bytes, headerKey: textBytes, headerValue: textBytes },
        // murmur2 masked to 31 bits, as the Java client and kafkajs partition: keys keep their partitions.
        partitioner: compatibilityPartitioner,
      }) as KafkaProducer,
  };
}

/** A topic and the partitions it should have (services/manifest.yaml; default DEFAULT_PARTITIONS). */
export interface TopicSpec {
  topic: string;
  partitions: number;
}

/**
 * Creates topics (and their DLQs, when listed) that do not exist yet with their partitions, adds
 * partitions to existing ones that have fewer (Kafka cannot remove any; keys are aggregate ids, so
 * order per aggregate holds, though an aggregate may move to another partition once), then waits
 * until every partition has a leader. Several services create the same topics at start, and a fresh
 * broker answers metadata requests for a new topic with UNKNOWN_TOPIC_OR_PARTITION for a moment,
 * so every step is retried. A bare name gets DEFAULT_PARTITIONS.
 * @throws the last error after `timeoutMs` (default 60 s).
 */
export async function ensureTopics(kafka: Kafka, topics: (string | TopicSpec)[], timeoutMs = 60_000): Promise<void> {
  const specs = topics.map((t) => (typeof t === "string" ? { topic: t, partitions: DEFAULT_PARTITIONS } : t));
  const names = specs.map((spec) => spec.topic);
  const admin = kafka.admin();
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      try {
        const existing = new Set(await admin.listTopics());
        const missing = specs.filter((spec) => !existing.has(spec.topic));
        for (const spec of missing) {
          await admin
            .createTopics({ topics: [spec.topic], partitions: spec.partitions, replicas: 1 })
            // Another service created it meanwhile: the metadata below decides.
            .catch((error: unknown) => {
              if (!findErrorBy(error as Error, "apiId", "TOPIC_ALREADY_EXISTS")) throw error;
            });
        }
        const metadata = await admin.metadata({ topics: names, forceUpdate: true });
        const count = new Map([...metadata.topics].map(([name, topic]) => [name, topic.partitionsCount]));
        const short = specs.filter(
          (spec) => (count.get(spec.topic) ?? 0) > 0 && count.get(spec.topic)! < spec.partitions,
        );
        if (short.length > 0) {
          await admin.createPartitions({ topics: short.map((spec) => ({ name: spec.topic, count: spec.partitions })) });
          throw new Error("partitions added; waiting for their leaders");
        }
        const ready = names.every((name) => {
          const topic = metadata.topics.get(name);
          return topic !== undefined && topic.partitions.length > 0 && topic.partitions.every((p) => p.leader >= 0);
        });
        if (ready) return;
        throw new Error("topic partitions have no leader yet");
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await sleep(500);
      }
    }
  } finally {
    await admin.close();
  }
}

/**
 * The partitions of a full topic name (`<namespace>.<name>` or its `.dlq`), from the manifest.
 * A DLQ has as many as its topic, so a replay keeps the spread.
 */
export function partitionsOf(namespace: string, topic: string): number {
  const name = topic.slice(namespace.length + 1).replace(/\.dlq$/, "");
  return TOPIC_PARTITIONS[name] ?? DEFAULT_PARTITIONS;
}

/**
 * Fails unless a service publishes and consumes exactly the topics the manifest declares for it,
 * so services/manifest.yaml (and the partitions, chart and docs made from it) stays the truth.
 * @throws Error naming each topic the code and the manifest disagree on.
 */
export function checkTopics(service: string, namespace: string, publishes: string[], consumes: string[]): void {
  const declared = SERVICE_TOPICS[service] ?? { publishes: [], consumes: [] };
  const strip = (topic: string) => topic.slice(namespace.length + 1);
  const problems: string[] = [];
  const compare = (what: string, code: string[], manifest: readonly string[]) => {
    const ours = new Set(code.map(strip));
    for (const topic of ours)
      if (!manifest.includes(topic)) problems.push(`${what} ${topic}, which the manifest does not list`);
    for (const topic of manifest)
      if (!ours.has(topic)) problems.push(`does not ${what} ${topic}, which the manifest lists`);
  };
  compare("publishes", publishes, declared.publishes);
  compare("consumes", consumes, declared.consumes);
  if (problems.length > 0) {
    throw new Error(
      `${service} ${problems.join("; ")} (services/manifest.yaml; run node scripts/manifest.mjs generate)`,
    );
  }
}
