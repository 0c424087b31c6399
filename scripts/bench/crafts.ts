// The generation benchmark, through the gateway with the offline engine (not a timed test):
//   1. p50/p95 of one step completion (PUT /api/workflowsV2/{id}/step/complete), one at a time;
//   2. time to the first streamed token over /rpc CompleteStep (Connect protocol, connect-node);
//   3. step completions per second with CRAFT_USERS (20) users at once, measured beside the
//      gateway's GET /api/user/account driven by autocannon in the same run.
// The offline engine waits OFFLINE_STREAM_DELAY_MS (the workflows service's, 12 ms by default)
// between chunks, so completion times are mostly that delay: the figure printed says which it was.
// Run with `make bench-crafts`. CRAFT_SAMPLES (30), CRAFT_USERS (20), BENCH_DURATION_S (20).
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { WorkflowsService } from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import { concurrent, load, machine, printTable, type Row, rowOf, signedInUser, stackEnv } from "./common";
import { Crafter, TOPIC } from "./crafting";

const env = stackEnv();
const gateway = (env.GATEWAY_URL ?? "http://localhost:28080").replace("localhost", "127.0.0.1");
const samples = Number(env.CRAFT_SAMPLES ?? 30);
const users = Number(env.CRAFT_USERS ?? 20);
const durationS = Number(env.BENCH_DURATION_S ?? 20);
async function oneAtATime(): Promise<Row> {
  const crafter = new Crafter();
  await crafter.completeStep(); // sign-up and a first craft, not measured
  const latencies: number[] = [];
  const started = performance.now();
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    await crafter.completeStep();
    latencies.push(performance.now() - t0);
  }
  return rowOf("REST step completion, 1 at a time", latencies, (performance.now() - started) / 1000, 0);
}

/** First `delta` over /rpc (the browser's streaming path), and the whole stream, per completion. */
async function streamed(): Promise<Row[]> {
  const crafter = new Crafter();
  const firstToken: number[] = [];
  const whole: number[] = [];
  const started = performance.now();
  for (let i = 0; i < samples; i++) {
    const { craftId, token } = await crafter.newCraft();
    const client = createClient(
      WorkflowsService,
      createConnectTransport({
        baseUrl: `${gateway}/rpc`,
        httpVersion: "1.1",
        interceptors: [
          (next) => (req) => {
            req.header.set("cookie", `crafter_at=${token}`);
            req.header.set("origin", gateway);
            return next(req);
          },
        ],
      }),
    );
    const t0 = performance.now();
    let first: number | undefined;
    for await (const message of client.completeStep({ craftId, stepName: "topic", values: TOPIC as never })) {
      if (message.event.case === "delta" && first === undefined) first = performance.now() - t0;
    }
    if (first === undefined) throw new Error("the stream carried no delta");
    firstToken.push(first);
    whole.push(performance.now() - t0);
  }
  const seconds = (performance.now() - started) / 1000;
  return [
    rowOf("/rpc CompleteStep: first streamed token", firstToken, seconds, 0),
    rowOf("/rpc CompleteStep: whole stream", whole, seconds, 0),
  ];
}

async function underLoad(): Promise<Row[]> {
  const crafters = Array.from({ length: users }, () => new Crafter());
  await Promise.all(crafters.map((crafter) => crafter.newCraft())); // sign-ups happen before the clock starts
  const reader = await signedInUser("reader");
  const [completions, reads] = await Promise.all([
    concurrent(users, durationS, (worker) => crafters[worker]!.completeStep()),
    load("GET /api/user/account, at the same time", {
      url: `${gateway}/api/user/account`,
      headers: { cookie: `crafter_at=${reader.accessToken}` },
      connections: 10,
      durationS,
    }),
  ]);
  return [
    rowOf(
      `REST step completions, ${users} users at once`,
      completions.latencies,
      completions.seconds,
      completions.errors,
    ),
    reads,
  ];
}

const delay = env.OFFLINE_STREAM_DELAY_MS ? `${env.OFFLINE_STREAM_DELAY_MS} ms (set)` : "12 ms (service default)";
console.log(`bench-crafts against ${gateway}: OFFLINE_STREAM_DELAY_MS ${delay}`);
console.log(`machine: ${machine()}\n`);
const rows = [await oneAtATime(), ...(await streamed()), ...(await underLoad())];
printTable(rows);
const ttft = rows[1]!;
console.log(
  `\nfirst token p50 ${ttft.p50.toFixed(1)} ms, p95 ${ttft.p95.toFixed(1)} ms; ` +
    `completions/s with ${users} users: ${rows[3]!.rps.toFixed(1)} (p95 ${rows[3]!.p95.toFixed(0)} ms)`,
);
console.log(`machine after: ${machine()}`);
process.exit(0);
