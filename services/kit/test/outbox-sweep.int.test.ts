import { randomUUID } from "node:crypto";
import { EmailVerifiedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Schema } from "mongoose";
import pino from "pino";
import {
  createKafka,
  createPublisher,
  dlqTopic,
  ensureTopics,
  type Kafka,
  modelOn,
  type OutboxEntry,
  type OutboxRelay,
  outboxEntry,
  outboxField,
  type Publisher,
  startOutboxRelay,
} from "../src";
import { throwawayDatabase } from "../src/testing";

// The outbox relay on the real Kafka and database: a restarted replica is ready after one pass over
// recent entries, and an entry older than the polls' lookback (left by a crash during a long outage)
// is still published, by the whole-collection scan that runs on its own shortly after.
const env = process.env;
const namespace = `${env.CRAFTER_NAMESPACE ?? "crafter_test"}_sweep_${randomUUID().slice(0, 8)}`;
const topic = `${namespace}.auth.user.v1`;
const logger = pino({ level: "silent" });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let kafka: Kafka;
let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let publisher: Publisher;
let relay: OutboxRelay | undefined;

beforeAll(async () => {
  kafka = createKafka(env.KAFKA_BROKERS ?? "127.0.0.1:9092", `${namespace}.test`, logger);
  await ensureTopics(kafka, [
    { topic, partitions: 1 },
    { topic: dlqTopic(topic), partitions: 1 },
  ]);
  database = await throwawayDatabase("outbox_sweep");
  publisher = await createPublisher(kafka);
});

afterAll(async () => {
  await relay?.stop();
  await publisher?.disconnect();
  await database?.drop();
  const admin = kafka.admin();
  await admin.deleteTopics({ topics: [topic, dlqTopic(topic)] }).catch(() => undefined);
  await admin.close();
});

describe("the outbox relay's whole-collection scan", () => {
  it("is not part of the first pass, and publishes an entry older than the lookback soon after", async () => {
    const Aggregate = modelOn<{ _id: string; outbox: OutboxEntry[] }>(
      database.connection,
      "SweptAggregate",
      new Schema<{ _id: string; outbox: OutboxEntry[] }>({ _id: String, outbox: outboxField }),
      "aggregates",
    );
    const old = outboxEntry(topic, "u-old", EmailVerifiedSchema, { userId: "u-old", email: "old@example.test" });
    old.time = new Date(Date.now() - 60 * 60_000);
    const recent = outboxEntry(topic, "u-new", EmailVerifiedSchema, { userId: "u-new", email: "new@example.test" });
    await Aggregate.create([
      { _id: "u-old", outbox: [old] },
      { _id: "u-new", outbox: [recent] },
    ]);
    const published = database.connection.collection<{ _id: string }>("outbox_published");
    const isPublished = async (id: string) => (await published.findOne({ _id: id })) !== null;

    relay = startOutboxRelay({
      models: [Aggregate],
      publisher,
      source: "test",
      logger,
      intervalMs: 300,
      lookbackMs: 60_000,
      fullScanMs: 600_000,
    });
    await relay.firstPass;
    expect(await isPublished(recent.id)).toBe(true);
    expect(await isPublished(old.id)).toBe(false);

    // The first scan comes six polls after start (1.8 s here), not at the next fullScanMs.
    const deadline = Date.now() + 15_000;
    while (!(await isPublished(old.id)) && Date.now() < deadline) await sleep(200);
    expect(await isPublished(old.id)).toBe(true);
  });
});
