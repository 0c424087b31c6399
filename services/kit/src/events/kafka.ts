import { Kafka, logLevel } from "kafkajs";
import type { Logger } from "pino";
import { splitList } from "../config/config";

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

/**
 * Creates topics (and their DLQs) that do not exist yet, then waits until every partition has a
 * leader. Several services create the same topics at start, and a fresh broker answers metadata
 * requests for a new topic with UNKNOWN_TOPIC_OR_PARTITION for a moment, so both are retried.
 * @throws the last error after `timeoutMs` (default 60 s).
 */
export async function ensureTopics(kafka: Kafka, topics: string[], timeoutMs = 60_000): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      try {
        const existing = new Set(await admin.listTopics());
        const missing = topics.filter((topic) => !existing.has(topic));
        if (missing.length > 0) {
          await admin.createTopics({
            waitForLeaders: true,
            topics: missing.map((topic) => ({ topic, numPartitions: 1, replicationFactor: 1 })),
          });
        }
        const { topics: metadata } = await admin.fetchTopicMetadata({ topics });
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
