import { Kafka, logLevel } from "kafkajs";
import type { Logger } from "pino";
import { splitList } from "../config/config";
import { DEFAULT_PARTITIONS, SERVICE_TOPICS, TOPIC_PARTITIONS } from "./topology.gen";

const LEVELS: Record<number, "error" | "warn" | "info" | "debug"> = {
  [logLevel.ERROR]: "error",
  [logLevel.WARN]: "warn",
  [logLevel.INFO]: "debug",
  [logLevel.DEBUG]: "debug",
};

/** A kafkajs client whose logs go through the service's pino logger. */
export function createKafka(brokers: string, clientId: string, logger: Logger): Kafka {
  return new Kafka({
    clientId,
    brokers: splitList(brokers),
    logLevel: logLevel.WARN,
    retry: { retries: 8, initialRetryTime: 200 },
    logCreator:
      () =>
      ({ level, log }) => {
        const { message, ...extra } = log;
        logger[LEVELS[level] ?? "info"]({ kafka: extra }, message);
      },
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  await admin.connect();
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      try {
        const existing = new Set(await admin.listTopics());
        const missing = specs.filter((spec) => !existing.has(spec.topic));
        if (missing.length > 0) {
          await admin.createTopics({
            waitForLeaders: true,
            topics: missing.map((spec) => ({
              topic: spec.topic,
              numPartitions: spec.partitions,
              replicationFactor: 1,
            })),
          });
        }
        const { topics: metadata } = await admin.fetchTopicMetadata({ topics: names });
        const count = new Map(metadata.map((topic) => [topic.name, topic.partitions.length]));
        const short = specs.filter(
          (spec) => (count.get(spec.topic) ?? 0) > 0 && count.get(spec.topic)! < spec.partitions,
        );
        if (short.length > 0) {
          await admin.createPartitions({
            validateOnly: false,
            topicPartitions: short.map((spec) => ({ topic: spec.topic, count: spec.partitions })),
          });
          throw new Error("partitions added; waiting for their leaders");
        }
        const ready = metadata.every(
          (topic) => topic.partitions.length > 0 && topic.partitions.every((p) => p.leader >= 0),
        );
        if (ready) return;
        throw new Error("topic partitions have no leader yet");
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await sleep(500);
      }
    }
  } finally {
    await admin.disconnect();
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
