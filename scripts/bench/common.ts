// Shared pieces of the benchmarks: the stack's addresses, users made through the gateway, latency
// statistics, and autocannon runs reduced to one row of the table.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { type EnvelopeResponse, type GatewaySession, repoRoot, stackEnv, verifiedSession } from "@crafter/kit/testing";
import autocannon from "autocannon";
import mongoose, { type Connection } from "mongoose";

/** Contacts seeded straight into the contacts service's database, and its snapshot dropped after. */
export { contactDocument, forgetContactSnapshot } from "../../services/contacts/test/seeded-contacts";

/** The test stack's addresses (the kit's stackEnv: environment, stack.env, infra.env). */
export { stackEnv };

/**
 * A new user, verified from Mailpit and signed in through the gateway (the kit's verifiedSession);
 * its access token (the `crafter_at` cookie), for autocannon's headers.
 */
export async function signedInUser(prefix = "bench"): Promise<{ email: string; accessToken: string }> {
  const { session, email } = await verifiedSession(prefix);
  const accessToken = session.cookies.get("crafter_at");
  if (!accessToken) throw new Error("sign-in set no access cookie");
  return { email, accessToken };
}

/** The user id (`sub`) of a session's access token. */
export function userIdOf(session: GatewaySession): string {
  const token = session.cookies.get("crafter_at") ?? "";
  return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()).sub as string;
}

/** A connection to a service's database on the stack's server (`<CRAFTER_NAMESPACE>_<service>`); close it after. */
export async function serviceDatabase(service: string): Promise<Connection> {
  const env = stackEnv();
  return mongoose
    .createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", {
      dbName: `${env.CRAFTER_NAMESPACE ?? "crafter_test"}_${service}`.replace(/-/g, "_"),
    })
    .asPromise();
}

/**
 * Puts a user on Pro (5,000 profiles, 20,000 emails a month) in billing's subscriptions collection,
 * as Stripe's subscription webhook would.
 */
export async function onProPlan(userId: string): Promise<void> {
  const billing = await serviceDatabase("billing");
  const now = new Date();
  try {
    await billing.collection("subscriptions").insertOne({
      _id: randomUUID() as never,
      userId,
      plan: "pro",
      planKey: "ProMonthly",
      status: "active",
      createdAt: now,
      updatedAt: now,
    });
  } finally {
    await billing.close();
  }
}

/** Percentile (0–100) of unsorted samples, nearest rank. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface Row {
  name: string;
  /** Completed requests (or operations) per second. */
  rps: number;
  /** Latency in ms. */
  p50: number;
  p95: number;
  p99: number;
  /** Non-2xx responses and socket errors. */
  errors: number;
  note?: string;
}

export function rowOf(name: string, latenciesMs: number[], seconds: number, errors: number, note?: string): Row {
  return {
    name,
    rps: latenciesMs.length / seconds,
    p50: percentile(latenciesMs, 50),
    p95: percentile(latenciesMs, 95),
    p99: percentile(latenciesMs, 99),
    errors,
    note,
  };
}

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  durationS: number;
  /** Processes whose CPU time per request is reported (e.g. the gateway and account), by name. */
  processes?: Processes;
}

/** Processes by name: one pid, or several whose CPU times add up (PostgreSQL's backends). */
export type Processes = Record<string, number | number[]>;

/** CPU time (user + system) a process has used, in ms, from /proc (Linux); NaN elsewhere. */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/**
 * The database's processes when scripts/infra runs them from this checkout: FerretDB, and
 * PostgreSQL's backends (the postmaster's children; a backend started during a run is missed).
 */
export function databasePids(): Processes {
  const pids: Processes = {};
  const ferretdb = join(repoRoot, ".data/ferretdb/ferretdb.pid");
  if (existsSync(ferretdb)) pids.ferretdb = Number(readFileSync(ferretdb, "utf8"));
  const postmaster = join(repoRoot, ".data/postgres/data/postmaster.pid");
  if (existsSync(postmaster)) {
    const parent = readFileSync(postmaster, "utf8").split("\n")[0]!;
    const children = spawnSync("pgrep", ["-P", parent], { encoding: "utf8" }).stdout.split("\n").filter(Boolean);
    pids.postgres = children.map(Number);
  }
  return pids;
}

/**
 * Starts counting the CPU time of `processes`; the function returned gives it per call since then,
 * e.g. "gateway 410 µs, workflows 1,200 µs".
 */
export function cpuPerCall(processes: Processes): (calls: number) => string {
  const entries = Object.entries(processes).map(([name, pids]) => [name, [pids].flat()] as const);
  const before = new Map(entries.flatMap(([, pids]) => pids.map((pid) => [pid, cpuMs(pid)] as const)));
  // A process that ended meanwhile (a PostgreSQL backend) is left out, not counted negative.
  const spent = (pids: readonly number[]) =>
    pids.reduce((sum, pid) => {
      const delta = cpuMs(pid) - before.get(pid)!;
      return Number.isFinite(delta) ? sum + delta : sum;
    }, 0);
  return (calls) => entries.map(([name, pids]) => `${name} ${fixed((1000 * spent(pids)) / calls, 0)} µs`).join(", ");
}

/** The pids of the stack's processes (.data/stack/<profile>/<name>.pid). */
export function stackPids(names: string[]): Record<string, number> {
  const profile = process.env.STACK_PROFILE ?? "test";
  const pids: Record<string, number> = {};
  for (const name of names) {
    const file = join(repoRoot, ".data/stack", profile, `${name}.pid`);
    if (existsSync(file)) pids[name] = Number(readFileSync(file, "utf8"));
  }
  return pids;
}

/**
 * Drives one URL with autocannon (keep-alive, `connections` at once, no pipelining) after a short
 * warm-up; latencies of every 2xx response are kept for exact p50/p95/p99 (autocannon's own summary
 * has no p95).
 */
export async function load(name: string, options: LoadOptions): Promise<Row> {
  const base = { url: options.url, headers: options.headers, connections: options.connections };
  await autocannon({ ...base, duration: 2 });
  // (the warm-up's CPU is left out: the counters are read around the measured run only)
  const latencies: number[] = [];
  let errors = 0;
  const instance = autocannon({ ...base, duration: options.durationS });
  // The instance re-emits each client's responses with the client first (autocannon's lib/run.js).
  (instance as unknown as NodeJS.EventEmitter).on(
    "response",
    (_client: unknown, status: number, _bytes: number, responseTime: number) => {
      if (status >= 200 && status < 300) latencies.push(responseTime);
      else errors++;
    },
  );
  const cpu = cpuPerCall(options.processes ?? {});
  const result = await instance;
  // CPU per request stays meaningful on a busy machine, where latency and req/s swing with the load.
  const note = options.processes ? `CPU/req: ${cpu(latencies.length)}` : undefined;
  return rowOf(name, latencies, options.durationS, errors + result.errors + result.timeouts, note);
}

/** Runs `call` `count` times one after the other (after `warmup` calls); per-call latencies. */
export async function sequential(count: number, call: () => Promise<unknown>, warmup = 50): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await call();
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await call();
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/** Keeps `concurrency` calls in flight for `seconds`; per-call latencies and failures. */
export async function concurrent(
  concurrency: number,
  seconds: number,
  call: (worker: number) => Promise<unknown>,
): Promise<{ latencies: number[]; errors: number; seconds: number }> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await call(worker);
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  return { latencies, errors, seconds: (performance.now() - started) / 1000 };
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "-");

/** Prints rows as a Markdown table; `ceilings` adds each row's rps as a share of those rows'. */
export function printTable(rows: Row[], ceilings: Row[] = []): void {
  printHeader(ceilings);
  for (const row of rows) printRow(row, ceilings);
}

export function printHeader(ceilings: Row[] = []): void {
  const header = [
    "what",
    "req/s",
    "p50 ms",
    "p95 ms",
    "p99 ms",
    "errors",
    ...ceilings.map((c) => `÷ ${c.name}`),
    "note",
  ];
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---").join("|")}|`);
}

/** One row, printed as soon as it is measured (a long run shows its progress). */
export function printRow(row: Row, ceilings: Row[] = []): void {
  const cells = [
    row.name,
    fixed(row.rps, row.rps < 10 ? 2 : 0),
    fixed(row.p50, 2),
    fixed(row.p95, 2),
    fixed(row.p99, 2),
    String(row.errors),
    ...ceilings.map((c) => `${fixed((100 * row.rps) / c.rps, 0)}%`),
    row.note ?? "",
  ];
  console.log(`| ${cells.join(" | ")} |`);
}

/** One line on the machine the figures came from. */
export function machine(): string {
  const [one, five] = loadavg();
  return `${cpus().length} cores (${cpus()[0]?.model.trim()}), load average ${one!.toFixed(2)} / ${five!.toFixed(2)} (1 / 5 min), node ${process.version}`;
}

/** The share of all cores' time spent busy over `ms` (0 to 1), from os.cpus(). */
async function busyShare(ms: number): Promise<number> {
  const sample = () =>
    cpus().reduce(
      (sum, { times }) => ({
        idle: sum.idle + times.idle,
        total: sum.total + times.user + times.nice + times.sys + times.idle + times.irq,
      }),
      { idle: 0, total: 0 },
    );
  const before = sample();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = sample();
  const total = after.total - before.total;
  return total > 0 ? 1 - (after.idle - before.idle) / total : 0;
}

/**
 * Waits until the stack's start-up burst is over: all cores under `maxBusy` busy over 2 s, or
 * `timeoutS` passed. The idle test stack itself keeps the 2 cores about 30 % busy (measured: outbox
 * polls and consumers, mostly FerretDB), hence 40 %. Returns one line saying which, for the report.
 */
export async function settle(maxBusy = 0.4, timeoutS = 60): Promise<string> {
  const started = performance.now();
  let busy = await busyShare(2000);
  while (busy > maxBusy && performance.now() - started < timeoutS * 1000) busy = await busyShare(2000);
  const waited = ((performance.now() - started) / 1000).toFixed(0);
  const quiet = busy <= maxBusy ? "quiet" : `still busy after the ${timeoutS} s limit`;
  return `${quiet} after ${waited} s: cores ${(100 * busy).toFixed(0)} % busy over the last 2 s`;
}

/** The number after `--name` on the command line, else `fallback`. */
export function numberArg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

/**
 * Calls `call` `runs` times one after another and prints its p50 and p95 in ms, the label padded
 * to `width` characters. @throws on the first answer with status 400 or more.
 */
export async function timed(
  label: string,
  runs: number,
  call: () => Promise<EnvelopeResponse>,
  width = 34,
): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = await call();
    times.push(performance.now() - start);
    if (result.status >= 400) throw new Error(`${label}: ${result.status} ${JSON.stringify(result.body)}`);
  }
  const ms = (p: number) => percentile(times, p).toFixed(0).padStart(6);
  console.log(`${label.padEnd(width)} p50 ${ms(50)} ms   p95 ${ms(95)} ms   (${runs} runs)`);
}
