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

/** Creates topics (and their DLQs) that do not exist yet; existing ones are left as they are. */
export async function ensureTopics(kafka: Kafka, topics: string[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((topic) => !existing.has(topic));
    if (missing.length > 0) {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({ topic, numPartitions: 1, replicationFactor: 1 })),
      });
    }
  } finally {
    await admin.disconnect();
  }
}
