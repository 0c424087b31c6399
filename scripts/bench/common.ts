// Shared pieces of the benchmarks: the stack's addresses, users made through the gateway, latency
// statistics, and autocannon runs reduced to one row of the table.
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";

const root = new URL("../..", import.meta.url).pathname.replace(/\.data\/bench\/$/, "");

function readEnv(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  return Object.fromEntries(
    readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

/** The test stack's addresses (.data/stack/<profile>/stack.env, .data/infra.env) under the environment. */
export function stackEnv(): Record<string, string> {
  const profile = process.env.BENCH_PROFILE ?? "test";
  return {
    ...readEnv(join(root, ".data/infra.env")),
    ...readEnv(join(root, ".data/stack", profile, "stack.env")),
    ...(process.env as Record<string, string>),
  };
}

export const PASSWORD = "Bench-passw0rd!";

/** A new user signed in through the gateway; its access token (the `crafter_at` cookie). */
export async function signedInUser(gateway: string, prefix = "bench"): Promise<{ email: string; accessToken: string }> {
  const email = `${prefix}-${randomUUID().slice(0, 12)}@bench.example.test`;
  const headers = { "content-type": "application/json", origin: gateway };
  // A stuck stack fails the benchmark instead of hanging it.
  const signUp = await fetch(`${gateway}/auth/signup`, {
    method: "POST",
    signal: AbortSignal.timeout(60_000),
    headers,
    body: JSON.stringify({ email, password: PASSWORD, displayName: "Bench" }),
  });
  if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  // /api refuses unverified users (issue 9): follow the verification link from Mailpit first.
  const verify = await fetch(`${gateway}/auth/verify`, {
    method: "POST",
    signal: AbortSignal.timeout(60_000),
    headers,
    body: JSON.stringify({ token: await verificationToken(email) }),
  });
  if (!verify.ok) throw new Error(`verify failed: ${verify.status} ${await verify.text()}`);
  const signIn = await fetch(`${gateway}/auth/signin`, {
    method: "POST",
    signal: AbortSignal.timeout(60_000),
    headers,
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const cookie = signIn.headers.getSetCookie().find((line) => line.startsWith("crafter_at="));
  if (!cookie) throw new Error("sign-in set no access cookie");
  return { email, accessToken: cookie.slice("crafter_at=".length, cookie.indexOf(";")) };
}

/** The token of the newest "Verify your email" message to `email`, read from Mailpit's API (60 s at most). */
async function verificationToken(email: string): Promise<string> {
  const api = stackEnv().MAILPIT_API_URL ?? "http://127.0.0.1:8025";
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const search = await fetch(`${api}/api/v1/search?query=${encodeURIComponent(`to:"${email}"`)}`);
    const { messages } = (await search.json()) as { messages: { ID: string; Subject: string }[] };
    const hit = messages.find((message) => message.Subject.includes("Verify your email"));
    if (hit) {
      const message = (await (await fetch(`${api}/api/v1/message/${hit.ID}`)).json()) as { Text: string };
      const token = /[?&]token=([^\s&)>"]+)/.exec(message.Text)?.[1];
      if (token) return decodeURIComponent(token);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no verification email to ${email} within 60 s`);
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
  processes?: Record<string, number>;
}

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

/** The pids of the stack's processes (.data/stack/<profile>/<name>.pid). */
export function stackPids(names: string[]): Record<string, number> {
  const profile = process.env.BENCH_PROFILE ?? "test";
  const pids: Record<string, number> = {};
  for (const name of names) {
    const file = join(root, ".data/stack", profile, `${name}.pid`);
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
  const processes = Object.entries(options.processes ?? {});
  const cpuBefore = processes.map(([, pid]) => cpuMs(pid));
  const result = await instance;
  // CPU per request stays meaningful on a busy machine, where latency and req/s swing with the load.
  const cpu = processes
    .map(([process, pid], i) => `${process} ${fixed((1000 * (cpuMs(pid) - cpuBefore[i]!)) / latencies.length, 0)} µs`)
    .join(", ");
  const note = processes.length > 0 ? `CPU/req: ${cpu}` : undefined;
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
