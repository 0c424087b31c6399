// Issue 3's generation benchmark, through the gateway with the offline engine (not a timed test):
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

const env = stackEnv();
const gateway = (env.GATEWAY_URL ?? "http://localhost:28080").replace("localhost", "127.0.0.1");
const samples = Number(env.CRAFT_SAMPLES ?? 30);
const users = Number(env.CRAFT_USERS ?? 20);
const durationS = Number(env.BENCH_DURATION_S ?? 20);
/** Generations one user makes before the benchmark signs up another (credits: 100 free per user). */
const GENERATIONS_PER_USER = 40;
const TOPIC = { topic: "Why slow-fermented sourdough is easier to digest", keywords: ["sourdough", "fermentation"] };

interface Step {
  name: string;
  values: Record<string, unknown>;
  /** What completing the step generates; steps without one (the draft editor) are not completed. */
  action?: { kind: string } | null;
}

/** What the benchmark reads of a craft and of a completion (docs/api.md). */
interface CraftView {
  craftId: string;
  steps: Step[];
}
interface Answer extends Partial<CraftView> {
  result?: { content?: string };
  craft: CraftView;
}

async function api(token: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${gateway}${path}`, {
    method,
    headers: { cookie: `crafter_at=${token}`, "content-type": "application/json", origin: gateway },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await response.json()) as { success: boolean; result: Answer; errorMessage: string | null };
  if (!response.ok || !envelope.success)
    throw new Error(`${method} ${path}: ${response.status} ${envelope.errorMessage}`);
  return envelope.result;
}

/** One crafting user: completes BlogWriter's steps in order, starting a new craft after the last. */
class Crafter {
  private token = "";
  private generations = 0;
  private craftId = "";
  private steps: Step[] = [];
  private next = 0;

  /** Completes the next step through REST; resolves when the gateway answered with the result. */
  async completeStep(): Promise<void> {
    if (!this.token || this.generations >= GENERATIONS_PER_USER) {
      this.token = (await signedInUser(gateway, "crafts")).accessToken;
      this.generations = 0;
      this.craftId = "";
    }
    while (this.next < this.steps.length && !this.steps[this.next]!.action) this.next++;
    if (!this.craftId || this.next >= this.steps.length) await this.newCraft();
    const step = this.steps[this.next]!;
    const values = this.next === 0 ? TOPIC : step.values;
    const done = await api(this.token, "PUT", `/api/workflowsV2/${this.craftId}/step/complete`, {
      stepName: step.name,
      values,
    });
    if (!done.result?.content) throw new Error("a completion without a result");
    this.generations++;
    this.steps = done.craft.steps;
    this.next++;
  }

  async newCraft(): Promise<{ craftId: string; token: string }> {
    if (!this.token) this.token = (await signedInUser(gateway, "crafts")).accessToken;
    const craft = await api(this.token, "POST", "/api/workflowsV2", { workflowName: "BlogWriter" });
    this.craftId = craft.craftId!;
    this.steps = craft.steps!;
    this.next = 0;
    return { craftId: this.craftId, token: this.token };
  }
}

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
  const reader = await signedInUser(gateway, "reader");
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
