// Performance baseline of the local stack, measured side by side in one run:
//   - the namespace's databases seeded with 10,000 users and 100,000 ledger entries (seed.ts, once);
//   - authenticated GET /api/user/account and /api/app/initial through the gateway, beside a bare
//     node:http and a bare Express hello-world (the ceilings), each driven by autocannon; Express is
//     measured again after the gateway rows, and the targets use the mean of its two runs;
//   - step completions per second of 20 users crafting at once with the offline engine (crafting.ts);
//   - the targets checked against those rows;
//   - the RPC round trip to a service (grpc.health.v1 Check, and AccountService.GetUserInfo with a token);
//   - a Kafka event from the kit publisher to a kit consumer on a bench topic.
// Run with `make bench` against the test stack. BENCH_DURATION_S (10), BENCH_CONNECTIONS (10),
// CRAFT_USERS (20); parts: `node scripts/bench/run.mjs bench [seed] [http] [crafts] [rpc] [kafka]`
// (default seed http crafts rpc kafka).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import {
  connectMongo,
  createKafka,
  createLogger,
  createPublisher,
  createServiceClient,
  ensureTopics,
  on,
  startConsumer,
} from "@crafter/kit";
import { AccountService } from "@crafter/proto/crafter/account/v1/account_pb";
import { CraftCreatedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import { Health } from "@crafter/proto/grpc/health/v1/health_pb";
import {
  concurrent,
  load,
  machine,
  printHeader,
  printRow,
  type Row,
  rowOf,
  sequential,
  settle,
  signedInUser,
  stackEnv,
  stackPids,
} from "./common";
import { stepCompletions } from "./crafting";
import { seed } from "./seed";

const env = stackEnv();
const gateway = (env.GATEWAY_URL ?? "http://localhost:28080").replace("localhost", "127.0.0.1");
const durationS = Number(env.BENCH_DURATION_S ?? 10);
const connections = Number(env.BENCH_CONNECTIONS ?? 10);
const craftUsers = Number(env.CRAFT_USERS ?? 20);
const only = process.argv.slice(2);
const wants = (part: string) => only.length === 0 || only.includes(part);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

const HELLO = JSON.stringify({ success: true, result: { hello: "world" }, errorMessage: null, error: null });
const CEILINGS = {
  "node:http hello": `import http from "node:http";
    http.createServer((req, res) => { res.writeHead(200, { "content-type": "application/json" }); res.end(${JSON.stringify(HELLO)}); })
      .listen(Number(process.env.PORT), "127.0.0.1", () => process.send("ready"));`,
  "express hello": `import express from "express";
    const app = express(); app.get("/", (req, res) => { res.json(${HELLO}); });
    app.listen(Number(process.env.PORT), "127.0.0.1", () => process.send("ready"));`,
};

/** A ceiling server in its own process, as the gateway is in its own. */
async function startCeiling(source: string): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--input-type=module", "-e", source], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("ceiling server did not start within 60 s")), 60_000);
    child.once("message", () => {
      clearTimeout(timer);
      resolve();
    });
    child.once("exit", (code) => reject(new Error(`ceiling server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill() };
}

let ceilings: Row[] = [];
const EXPRESS_AGAIN = "express hello, again after the gateway rows";
const report = (row: Row) => {
  printRow(row, ceilings);
  return row;
};

/** One ceiling's row: its server started, loaded for `durationS` and stopped. */
async function ceilingRow(name: string, source: string): Promise<Row> {
  const server = await startCeiling(source);
  try {
    return await load(name, { url: server.url, connections, durationS });
  } finally {
    server.stop();
  }
}

async function httpRows(): Promise<Row[]> {
  const measured: Row[] = [];
  for (const [name, source] of Object.entries(CEILINGS)) measured.push(await ceilingRow(name, source));
  ceilings = measured;
  printHeader(ceilings);
  for (const row of measured) report(row);
  const { accessToken } = await signedInUser();
  const cookie = { cookie: `crafter_at=${accessToken}` };
  const processes = stackPids(["gateway", "account", "projects", "workflows"]);
  return [
    ...measured,
    report(await load("gateway GET /healthz", { url: `${gateway}/healthz`, connections, durationS, processes })),
    report(
      await load("gateway GET /api/user/account", {
        url: `${gateway}/api/user/account`,
        headers: cookie,
        connections,
        durationS,
        processes,
      }),
    ),
    report(
      await load("gateway GET /api/app/initial", {
        url: `${gateway}/api/app/initial`,
        headers: cookie,
        connections,
        durationS,
        processes,
      }),
    ),
    // This machine drifts by ±15 % within minutes: the targets are judged against both Express runs.
    report(await ceilingRow(EXPRESS_AGAIN, CEILINGS["express hello"])),
  ];
}

async function rpcRows(): Promise<Row[]> {
  const accountUrl = env.ACCOUNT_URL ?? "http://127.0.0.1:28852";
  const { accessToken } = await signedInUser();
  const health = createServiceClient(Health, accountUrl, { timeoutMs: 5000 });
  const account = createServiceClient(AccountService, accountUrl, { timeoutMs: 5000 });
  const asUser = { headers: { authorization: `Bearer ${accessToken}` } };
  const rows: Row[] = [];
  const started = performance.now();
  const serial = await sequential(500, () => health.check({}));
  rows.push(rowOf("rpc Health.Check, 1 at a time", serial, (performance.now() - started) / 1000, 0, "gRPC/h2c"));
  const many = await concurrent(connections, durationS, () => health.check({}));
  rows.push(rowOf(`rpc Health.Check, ${connections} in flight`, many.latencies, many.seconds, many.errors));
  const t0 = performance.now();
  const serialUser = await sequential(300, () => account.getUserInfo({}, asUser));
  rows.push(
    rowOf("rpc Account.GetUserInfo, 1 at a time", serialUser, (performance.now() - t0) / 1000, 0, "JWT + FerretDB"),
  );
  const manyUser = await concurrent(connections, durationS, () => account.getUserInfo({}, asUser));
  rows.push(
    rowOf(`rpc Account.GetUserInfo, ${connections} in flight`, manyUser.latencies, manyUser.seconds, manyUser.errors),
  );
  return rows;
}

/** Publish (kit publisher, acks=all) to consume (kit consumer, with its dedupe marker) on a bench topic. */
async function kafkaRows(): Promise<Row[]> {
  const namespace = env.CRAFTER_NAMESPACE ?? "crafter_test";
  const logger = createLogger("bench", "warn");
  const kafka = createKafka(env.KAFKA_BROKERS ?? "127.0.0.1:9092", `${namespace}.bench`, logger);
  const topic = `${namespace}.bench.latency.v1`;
  await ensureTopics(kafka, [topic, `${topic}.dlq`]);
  const mongo = await connectMongo(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", `${namespace}_bench`, logger);
  const publisher = await createPublisher(kafka);
  const waiting = new Map<string, () => void>();
  const consumer = await startConsumer({
    kafka,
    groupId: `${namespace}.bench.${randomUUID().slice(0, 8)}`,
    topics: [topic],
    handlers: [on(CraftCreatedSchema, async (_event, meta) => waiting.get(meta.id)?.())],
    connection: mongo,
    publisher,
    logger,
  });
  const publishMs: number[] = [];
  const send = async () => {
    const id = randomUUID();
    const consumed = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`event ${id} not consumed within 60 s`)), 60_000);
      waiting.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    const value = Buffer.from(
      toBinary(CraftCreatedSchema, create(CraftCreatedSchema, { craftId: id, userId: "bench" })),
    );
    const t0 = performance.now();
    await publisher.publish(topic, id, value, {
      ce_id: id,
      ce_type: CraftCreatedSchema.typeName,
      ce_source: "bench",
      ce_time: new Date().toISOString(),
    });
    publishMs.push(performance.now() - t0);
    await consumed;
    waiting.delete(id);
  };
  try {
    // The first message also waits for the group to join (seconds); it is not measured.
    await send();
    const started = performance.now();
    publishMs.length = 0;
    const latencies = await sequential(100, send, 10);
    const seconds = (performance.now() - started) / 1000;
    return [
      rowOf("kafka publish → ack (acks=all)", publishMs.slice(-100), seconds, 0),
      rowOf("kafka publish → consumer handler", latencies, seconds, 0, "1 at a time"),
    ];
  } finally {
    await consumer.disconnect();
    await publisher.disconnect();
    await mongo.dropDatabase();
    await mongo.close();
  }
}

console.log(`bench against ${gateway}: ${connections} connections, ${durationS} s per HTTP row`);
console.log(`machine: ${machine()}`);
if (wants("seed")) {
  const seeded = await seed(env);
  console.log(
    seeded.seeded
      ? `seeded ${seeded.users} users and ${seeded.entries} ledger entries in ${seeded.seconds.toFixed(1)} s`
      : `already seeded with ${seeded.users} users and ${seeded.entries} ledger entries`,
  );
}
console.log(`machine settled: ${await settle()}`);
console.log("");
// Each row is printed as soon as it is measured: the whole run takes minutes on a busy machine.
const rows: Row[] = [];
if (wants("http")) rows.push(...(await httpRows()));
else printHeader();
if (wants("crafts")) rows.push(report(await stepCompletions(craftUsers, Number(env.CRAFT_DURATION_S ?? 20))));
if (wants("rpc")) for (const row of await rpcRows()) report(row);
if (wants("kafka")) for (const row of await kafkaRows()) report(row);

/** The targets, as ratios within this run. */
const find = (name: string) => rows.find((row) => row.name === name);
const expressRuns = [find("express hello"), find(EXPRESS_AGAIN)].filter((row) => row !== undefined);
/** The Express hello-world's req/s, the mean of its runs before and after the gateway rows. */
const express = expressRuns.length
  ? { rps: expressRuns.reduce((sum, row) => sum + row.rps, 0) / expressRuns.length }
  : undefined;
const account = find("gateway GET /api/user/account");
const initial = find("gateway GET /api/app/initial");
const steps = rows.find((row) => row.name.startsWith("REST step completions"));
const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
console.log("");
if (express)
  console.log(
    `express hello: ${express.rps.toFixed(0)} req/s, the mean of ${expressRuns.map((row) => row.rps.toFixed(0)).join(" and ")}`,
  );
if (express && account)
  console.log(
    `target /api/user/account ≥ 50 % of express with p99 < 50 ms: ${((100 * account.rps) / express.rps).toFixed(0)} %, p99 ${account.p99.toFixed(1)} ms: ${verdict(account.rps >= 0.5 * express.rps && account.p99 < 50)}`,
  );
if (express && initial)
  console.log(
    `target /api/app/initial ≥ 20 % of express: ${((100 * initial.rps) / express.rps).toFixed(0)} %: ${verdict(initial.rps >= 0.2 * express.rps)}`,
  );
if (steps)
  console.log(
    `target ≥ 10 step completions/s for ${craftUsers} users: ${steps.rps.toFixed(1)}/s, p95 ${steps.p95.toFixed(0)} ms: ${verdict(steps.rps >= 10)}`,
  );
console.log(`\nmachine after: ${machine()}`);
process.exit(0);
