import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import http2 from "node:http2";
import { create, toBinary } from "@bufbuild/protobuf";
import { type EmailVerified, EmailVerifiedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import mongoose, { type Connection, Schema } from "mongoose";
import pino from "pino";
import {
  createKafka,
  createPublisher,
  dlqTopic,
  ensureTopics,
  type Kafka,
  modelOn,
  type OutboxEntry,
  type OutboxModel,
  type OutboxRelay,
  on,
  outboxEntry,
  outboxField,
  type Publisher,
  type RpcServer,
  type RunningConsumer,
  startConsumer,
  startOutboxRelay,
  startRpcServer,
} from "../src";

// Ready means working, on the real Kafka and database: grpc.health.v1 answers NOT_SERVING while
// the consumer waits for its group join (here held up by a member of a "previous process" killed
// with SIGKILL, which never left the group, as a killed replica holds up a rebalance) and
// until the outbox relay's first pass; SERVING after; and an event published right after readiness
// is handled promptly. services/kit/src/service.ts wires the same three parts the same way.

const env = process.env;
const namespace = `${env.CRAFTER_NAMESPACE ?? "crafter_test"}_ready_${randomUUID().slice(0, 8)}`;
const topic = `${namespace}.auth.user.v1`;
const group = `${namespace}.probe`;
const logger = pino({ level: "silent" });

let kafka: Kafka;
let mongo: Connection;
let publisher: Publisher;
let previous: ChildProcess | undefined;
let consumer: RunningConsumer | undefined;
let relay: OutboxRelay | undefined;
let server: RpcServer | undefined;

/** grpc.health.v1.Health/Check over the Connect protocol, as scripts/stack.mjs and healthcheck.mjs ask. */
function health(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://127.0.0.1:${port}`);
    session.on("error", reject);
    const request = session.request({
      ":method": "POST",
      ":path": "/grpc.health.v1.Health/Check",
      "content-type": "application/json",
    });
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("error", reject);
    request.on("end", () => {
      session.close();
      resolve(JSON.parse(body).status);
    });
    request.end("{}");
  });
}

/**
 * The previous process's member: joins the group with an 8 s session and rebalance timeout and
 * prints "joined"; killed, it leaves the coordinator waiting up to those 8 s for it to rejoin.
 */
const PREVIOUS_MEMBER = `
import { Consumer } from "@platformatic/kafka";
const consumer = new Consumer({ clientId: "previous", bootstrapBrokers: process.env.BROKERS.split(","), groupId: process.env.GROUP });
consumer.once("consumer:group:join", () => console.log("joined"));
const stream = await consumer.consume({ topics: [process.env.TOPIC], mode: "earliest", sessionTimeout: 8000, rebalanceTimeout: 8000, heartbeatInterval: 1000 });
stream.resume();
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

beforeAll(async () => {
  kafka = createKafka(env.KAFKA_BROKERS ?? "127.0.0.1:9092", `${namespace}.test`, logger);
  await ensureTopics(kafka, [
    { topic, partitions: 2 },
    { topic: dlqTopic(topic), partitions: 2 },
  ]);
  mongo = await mongoose
    .createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", { dbName: namespace })
    .asPromise();
  publisher = await createPublisher(kafka);
});

afterAll(async () => {
  previous?.kill("SIGKILL");
  await server?.drain(0);
  await relay?.stop();
  await consumer?.disconnect();
  await publisher?.disconnect();
  await mongo?.dropDatabase();
  await mongo?.close();
  const admin = kafka.admin();
  await admin.deleteTopics({ topics: [topic, dlqTopic(topic)] }).catch(() => undefined);
  await admin.close();
});

describe("readiness", () => {
  it("is NOT_SERVING until the consumer holds its partitions and the relay has run, then handles events at once", async () => {
    // A member of a previous process that never left: killed with SIGKILL once it has joined.
    previous = spawn(process.execPath, ["--input-type=module", "-e", PREVIOUS_MEMBER], {
      env: { ...env, BROKERS: kafka.brokers.join(","), GROUP: group, TOPIC: topic },
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      previous!.stdout!.on("data", (chunk) => {
        if (String(chunk).includes("joined")) resolve();
      });
      previous!.once("exit", (code) => reject(new Error(`the previous member exited (${code}) before it joined`)));
    });
    previous.kill("SIGKILL");

    // An event written to an outbox before the service started: the relay's first pass publishes it.
    const Aggregate: OutboxModel = modelOn<{ _id: string; outbox: OutboxEntry[] }>(
      mongo,
      "ReadyAggregate",
      new Schema<{ _id: string; outbox: OutboxEntry[] }>({ _id: String, outbox: outboxField }),
      "aggregates",
    );
    const waiting = outboxEntry(topic, "u-1", EmailVerifiedSchema, { userId: "u-1", email: "before@example.test" });
    await Aggregate.create({ _id: "u-1", outbox: [waiting] });

    const handled = new Map<string, number>();
    // As services/kit/src/service.ts: the consumer starts beside the RPC server (run() returns at the join).
    const started = startConsumer({
      kafka,
      groupId: group,
      topics: [topic],
      handlers: [
        on(EmailVerifiedSchema, async (event: EmailVerified) => {
          handled.set(event.email, Date.now());
        }),
      ],
      connection: mongo,
      publisher,
      logger,
    });
    let joinedAt: number | undefined;
    const joined = started
      .then((running) => running.joined)
      .then(() => {
        joinedAt = Date.now();
      });
    relay = startOutboxRelay({ models: [Aggregate], publisher, source: "test", logger });
    server = await startRpcServer({
      port: 0,
      routes: () => undefined,
      logger,
      ready: Promise.all([joined, relay.firstPass]),
    });
    const port = server.port;

    // The relay's pass takes well under a second; the join stays held while the coordinator waits
    // for the killed member (up to its 8 s rebalance timeout).
    await relay.firstPass;
    for (let i = 0; i < 10; i++) {
      expect(await health(port)).toBe("NOT_SERVING");
      await sleep(300);
    }
    expect(joinedAt).toBeUndefined();

    // The coordinator gives up on the killed member: the join completes and the service holds every partition.
    consumer = await started;
    const servingAt = await until(
      "SERVING",
      async () => ((await health(port)) === "SERVING" ? Date.now() : undefined),
      30_000,
    );
    expect(joinedAt).toBeDefined();
    expect(joinedAt!).toBeLessThanOrEqual(servingAt);
    const admin = kafka.admin();
    const described = await admin.describeGroups({ groups: [group] }).finally(() => admin.close());
    expect(described.get(group)?.members.size).toBe(1);

    // What the relay published before readiness is handled once the consumer holds its partitions.
    await until("the outbox's event handled", () => handled.get("before@example.test"), 10_000);

    // An event published right after readiness is handled promptly, not after a rebalance.
    const sent = Date.now();
    await publisher.publish(
      topic,
      "u-2",
      Buffer.from(
        toBinary(EmailVerifiedSchema, create(EmailVerifiedSchema, { userId: "u-2", email: "after@example.test" })),
      ),
      {
        ce_id: randomUUID(),
        ce_type: EmailVerifiedSchema.typeName,
        ce_source: "test",
        ce_time: new Date().toISOString(),
      },
    );
    const at = await until(
      "the event published after readiness handled",
      () => handled.get("after@example.test"),
      5_000,
    );
    expect(at - sent).toBeLessThan(5_000);
    expect(await health(port)).toBe("SERVING");
  });
});
