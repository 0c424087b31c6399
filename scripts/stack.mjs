#!/usr/bin/env node
// Starts, checks and stops Crafter's services and gateway as local processes, against the servers
// of scripts/infra. Profiles keep a dev stack and a test stack apart (ports, namespace, logs):
//   node scripts/stack.mjs up|down [name…]|status [--profile dev|test]
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http2 from "node:http2";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const args = process.argv.slice(2);
const command = args[0] ?? "status";
const profile = args.includes("--profile") ? args[args.indexOf("--profile") + 1] : "dev";
// `down <name>…` stops only those (e.g. to restart one service with other settings).
const only = args.slice(1).filter((arg, i, all) => !arg.startsWith("--") && all[i] !== profile);

const PROFILES = {
  dev: { gateway: 8080, rpcBase: 50051, namespace: "crafter" },
  // Tests sign in many times from one address: the per-IP limit would only get in their way.
  // The website audit may read pages of *.crafter.test from local page servers the tests start.
  // WORKFLOWS_TEST_FIXTURES registers the hidden EngineCheck workflow the engine's tests run.
  test: {
    gateway: 28080,
    rpcBase: 28051,
    namespace: "crafter_test",
    env: {
      SIGNIN_LIMIT_PER_IP: "100000",
      MAIL_LIMIT_PER_IP: "100000",
      // Tests name their client IP in X-Forwarded-For (one proxy hop trusted), e.g. the lock-out
      // from a second address; every limit still reads the IP from this setting only.
      TRUST_PROXY: "1",
      WORKFLOWS_TEST_FIXTURES: "true",
      WEBSITE_AUDIT_RESOLVE: "*.crafter.test=127.0.0.1",
    },
  },
};
const base = PROFILES[profile];
if (!base) throw new Error(`unknown profile ${profile}`);
// STACK_PORT_OFFSET lets several checkouts run a test stack at once on the same servers (each with
// its own CRAFTER_NAMESPACE, so databases, topics and Redis keys stay apart).
const offset = Number(process.env.STACK_PORT_OFFSET ?? 0);
const settings = { ...base, gateway: base.gateway + offset, rpcBase: base.rpcBase + offset };

const SERVICES = ["auth", "account", "projects", "workflows", "notifications", "billing"];
const port = (name) => settings.rpcBase + SERVICES.indexOf(name);
const dir = join(root, ".data", "stack", profile);
const pidFile = (name) => join(dir, `${name}.pid`);
const logFile = (name) => join(dir, `${name}.log`);

function infraEnv() {
  const file = join(root, ".data/infra.env");
  if (!existsSync(file)) throw new Error("infrastructure is not up: run scripts/infra/infra up");
  return Object.fromEntries(
    readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

/** The secret by which auth knows the gateway's calls: one per profile, kept across restarts of single services. */
function gatewaySecret() {
  const file = join(dir, "gateway-secret");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("hex"), { mode: 0o600 });
  }
  return readFileSync(file, "utf8").trim();
}

function environment() {
  const infra = infraEnv();
  const origin = process.env.PUBLIC_ORIGIN ?? `http://localhost:${settings.gateway}`;
  return {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV ?? "production",
    CRAFTER_NAMESPACE: process.env.CRAFTER_NAMESPACE ?? settings.namespace,
    MONGODB_URL: process.env.MONGODB_URL ?? infra.MONGODB_URL,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? infra.KAFKA_BROKERS,
    REDIS_URL: process.env.REDIS_URL ?? infra.REDIS_URL,
    SMTP_URL: process.env.SMTP_URL ?? infra.SMTP_URL,
    PUBLIC_ORIGIN: origin,
    EXTRA_ORIGINS: process.env.EXTRA_ORIGINS ?? `http://127.0.0.1:${settings.gateway}`,
    AUTH_URL: `http://127.0.0.1:${port("auth")}`,
    ACCOUNT_URL: `http://127.0.0.1:${port("account")}`,
    PROJECTS_URL: `http://127.0.0.1:${port("projects")}`,
    WORKFLOWS_URL: `http://127.0.0.1:${port("workflows")}`,
    NOTIFICATIONS_URL: `http://127.0.0.1:${port("notifications")}`,
    BILLING_URL: `http://127.0.0.1:${port("billing")}`,
    WEB_DIST: join(root, "web/dist"),
    KAFKAJS_NO_PARTITIONER_WARNING: "1",
    GATEWAY_AUTH_SECRET: process.env.GATEWAY_AUTH_SECRET ?? gatewaySecret(),
    ...settings.env,
  };
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function runningPid(name) {
  if (!existsSync(pidFile(name))) return undefined;
  const pid = Number(readFileSync(pidFile(name), "utf8"));
  return alive(pid) ? pid : undefined;
}

/** grpc.health.v1.Health/Check over the Connect protocol (JSON over HTTP/2). */
function healthCheck(rpcPort) {
  return new Promise((resolve) => {
    const session = http2.connect(`http://127.0.0.1:${rpcPort}`);
    session.on("error", () => resolve(false));
    const req = session.request({
      ":method": "POST",
      ":path": "/grpc.health.v1.Health/Check",
      "content-type": "application/json",
    });
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      session.close();
      try {
        resolve(JSON.parse(body).status === "SERVING");
      } catch {
        resolve(false);
      }
    });
    req.on("error", () => resolve(false));
    req.end("{}");
  });
}

async function gatewayHealthy() {
  try {
    const response = await fetch(`http://127.0.0.1:${settings.gateway}/healthz`);
    return response.ok;
  } catch {
    return false;
  }
}

async function waitFor(name, check, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    if (!runningPid(name)) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const tail = existsSync(logFile(name)) ? readFileSync(logFile(name), "utf8").split("\n").slice(-25).join("\n") : "";
  throw new Error(`${name} did not become healthy. Last log lines (${logFile(name)}):\n${tail}`);
}

function start(name, entry, env) {
  if (runningPid(name)) return false;
  if (!existsSync(join(root, entry))) throw new Error(`${entry} is missing: run npm run build`);
  const out = openSync(logFile(name), "a");
  // The telemetry preload must run before main.js imports anything it instruments (ESM).
  const preload = `./${entry.replace(/main\.js$/, "instrument.js")}`;
  // STACK_NODE_ARGS adds node flags NODE_OPTIONS refuses, e.g. "--cpu-prof" (scripts/bench/profile.sh).
  const nodeArgs = (process.env.STACK_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, "--enable-source-maps", "--import", preload, entry], {
    cwd: root,
    env,
    detached: true,
    stdio: ["ignore", out, out],
  });
  closeSync(out);
  writeFileSync(pidFile(name), String(child.pid));
  child.unref();
  return true;
}

async function up() {
  mkdirSync(dir, { recursive: true });
  const env = environment();
  const started = performance.now();
  for (const name of SERVICES) start(name, `services/${name}/dist/main.js`, { ...env, PORT: String(port(name)) });
  start("gateway", "services/gateway/dist/main.js", { ...env, PORT: String(settings.gateway) });
  await Promise.all([
    ...SERVICES.map((name) => waitFor(name, () => healthCheck(port(name)))),
    waitFor("gateway", gatewayHealthy),
  ]);
  const addresses = {
    GATEWAY_URL: `http://localhost:${settings.gateway}`,
    CRAFTER_NAMESPACE: env.CRAFTER_NAMESPACE,
    ...(env.OTEL_EXPORTER_OTLP_ENDPOINT ? { OTEL_EXPORTER_OTLP_ENDPOINT: env.OTEL_EXPORTER_OTLP_ENDPOINT } : {}),
    ...Object.fromEntries(
      ["AUTH", "ACCOUNT", "PROJECTS", "WORKFLOWS", "NOTIFICATIONS", "BILLING"].map((name) => [
        `${name}_URL`,
        env[`${name}_URL`],
      ]),
    ),
  };
  // For tests and tools that talk to this stack.
  writeFileSync(
    join(dir, "stack.env"),
    `${Object.entries(addresses)
      .map(([key, value]) => `${key}=${value}`)
      .join("\n")}\n`,
  );
  console.log(`stack (${profile}) healthy in ${Math.round(performance.now() - started)} ms`);
  console.log(`\n  Crafter is running: ${env.PUBLIC_ORIGIN}\n`);
}

async function down() {
  const names = only.length > 0 ? only : ["gateway", ...SERVICES];
  await Promise.all(
    names.map(async (name) => {
      const pid = runningPid(name);
      if (pid) {
        process.kill(pid, "SIGTERM");
        const deadline = Date.now() + 15_000;
        while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
        if (alive(pid)) process.kill(pid, "SIGKILL");
      }
      rmSync(pidFile(name), { force: true });
    }),
  );
  console.log(`stack (${profile}) stopped${only.length > 0 ? `: ${only.join(", ")}` : ""}`);
}

async function status() {
  for (const name of [...SERVICES, "gateway"]) {
    const pid = runningPid(name);
    const healthy = pid ? (name === "gateway" ? await gatewayHealthy() : await healthCheck(port(name))) : false;
    const address = name === "gateway" ? `http://localhost:${settings.gateway}` : `127.0.0.1:${port(name)}`;
    console.log(
      `${name.padEnd(14)} ${pid ? (healthy ? "healthy" : "unhealthy") : "stopped"}\t${pid ?? "-"}\t${address}`,
    );
  }
}

const commands = { up, down, status };
if (!commands[command]) {
  console.error("usage: node scripts/stack.mjs up|down|status [--profile dev|test]");
  process.exit(2);
}
try {
  await commands[command]();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
