import { randomUUID } from "node:crypto";
import { create, toBinary } from "@bufbuild/protobuf";
import { EmailVerifiedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import mongoose, { type Connection } from "mongoose";
import pino from "pino";
import {
  createKafka,
  createPublisher,
  dlqTopic,
  ensureTopics,
  type Kafka,
  on,
  type Publisher,
  type RunningConsumer,
  startConsumer,
} from "../src";

// A consumer handles its partitions side by side and each partition in order, on the real Kafka
// and database: events of one key (one partition) keep their order, events of other keys do not
// wait behind a slow handler, and a re-delivered event is still handled once.

const env = process.env;
const namespace = `${env.CRAFTER_NAMESPACE ?? "crafter_test"}_parts_${randomUUID().slice(0, 8)}`;
const topic = `${namespace}.auth.user.v1`;
const logger = pino({ level: "silent" });
const KEYS = Array.from({ length: 8 }, (_, i) => `user-${i}`);
const PER_KEY = 10;

let kafka: Kafka;
let mongo: Connection;
let publisher: Publisher;
let consumer: RunningConsumer | undefined;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function event(key: string, seq: number, id = randomUUID()) {
  const value = Buffer.from(
    toBinary(EmailVerifiedSchema, create(EmailVerifiedSchema, { userId: key, email: `${key}.${seq}@example.test` })),
  );
  return { value, headers: { ce_id: id, ce_type: EmailVerifiedSchema.typeName, ce_source: "test" } };
}

beforeAll(async () => {
  kafka = createKafka(env.KAFKA_BROKERS ?? "127.0.0.1:9092", `${namespace}.test`, logger);
  await ensureTopics(kafka, [
    { topic, partitions: 4 },
    { topic: dlqTopic(topic), partitions: 4 },
  ]);
  mongo = await mongoose
    .createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", { dbName: namespace })
    .asPromise();
  publisher = await createPublisher(kafka);
});

afterAll(async () => {
  await consumer?.disconnect();
  await publisher?.disconnect();
  await mongo?.dropDatabase();
  await mongo?.close();
  const admin = kafka.admin();
  await admin.deleteTopics({ topics: [topic, dlqTopic(topic)] }).catch(() => undefined);
  await admin.close();
});

describe("a consumer's partitions", () => {
  it("are handled side by side, each in order, and a re-delivered event once", async () => {
    const seen = new Map<string, number[]>();
    let running = 0;
    let mostAtOnce = 0;
    consumer = await startConsumer({
      kafka,
      groupId: `${namespace}.probe`,
      topics: [topic],
      handlers: [
        on(EmailVerifiedSchema, async (verified) => {
          running++;
          mostAtOnce = Math.max(mostAtOnce, running);
          // A slow handler: one partition's wait must not hold up the others.
          await sleep(20);
          const seq = Number(verified.email.split("@")[0]!.split(".")[1]);
          seen.set(verified.userId, [...(seen.get(verified.userId) ?? []), seq]);
          running--;
        }),
      ],
      connection: mongo,
      publisher,
      logger,
      concurrency: 4,
    });
    await consumer.joined;

    const repeatedId = randomUUID();
    for (let seq = 0; seq < PER_KEY; seq++) {
      await Promise.all(
        KEYS.map((key) => {
          const { value, headers } = event(key, seq, key === KEYS[0] && seq === 0 ? repeatedId : undefined);
          return publisher.publish(topic, key, value, headers);
        }),
      );
    }
    // The first event again, with its id: the processed marker skips it.
    const again = event(KEYS[0]!, 0, repeatedId);
    await publisher.publish(topic, KEYS[0]!, again.value, again.headers);

    const deadline = Date.now() + 30_000;
    const total = () => [...seen.values()].reduce((sum, list) => sum + list.length, 0);
    while (total() < KEYS.length * PER_KEY && Date.now() < deadline) await sleep(100);
    await sleep(500);

    for (const key of KEYS) expect(seen.get(key)).toEqual(Array.from({ length: PER_KEY }, (_, i) => i));
    expect(total()).toBe(KEYS.length * PER_KEY);
    // 8 keys over 4 partitions: more than one partition was handled at a time, never more than 4.
    expect(mostAtOnce).toBeGreaterThan(1);
    expect(mostAtOnce).toBeLessThanOrEqual(4);
  });
});
