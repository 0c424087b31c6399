#!/usr/bin/env node
// Starts, checks and stops Crafter's services and gateway as local processes, against the servers
// of scripts/infra. Profiles keep a dev stack and a test stack apart (ports, namespace, logs):
//   node scripts/stack.mjs up|down [name…]|status [--profile dev|test] [--replicas N|name=N,…]
// (`up name…` starts only those instances, e.g. `up notifications-2`; `down name…` stops only those.)
// `--replicas 2` runs a second process of every service (`<name>-2`, on its port + 500) with the
// same namespace and settings: the gateway calls the first, and background work (consumers, job
// queues, outbox relays) runs in both; `--replicas notifications=2` does it for one service only.
// The components, their ports and whom each calls come from services/manifest.yaml: each process
// gets the <PEER>_URL of exactly the services it calls (a missing one would stop it at start).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http2 from "node:http2";
import net from "node:net";
import { join } from "node:path";
import { loadManifest, urlVar } from "./manifest.mjs";

const root = new URL("..", import.meta.url).pathname;
const args = process.argv.slice(2);
const command = args[0] ?? "status";
const profile = args.includes("--profile") ? args[args.indexOf("--profile") + 1] : "dev";
// `down <name>…` stops only those (e.g. to restart one service with other settings).
const replicasArg = args.includes("--replicas") ? args[args.indexOf("--replicas") + 1] : undefined;
const only = args
  .slice(1)
  .filter((arg, i, all) => !arg.startsWith("--") && all[i - 1] !== "--profile" && all[i - 1] !== "--replicas");

// `shift` moves the manifest's ports per protocol: the test stack's services listen on 28051…, its
// gateway on 28080, so it runs beside a dev stack.
const PROFILES = {
  dev: { shift: { grpc: 0, http: 0 }, namespace: "crafter" },
  // Tests sign in many times from one address: the per-IP limit would only get in their way.
  // The website audit may read pages of *.crafter.test from local page servers the tests start.
  // WORKFLOWS_TEST_FIXTURES registers the hidden EngineCheck workflow the engine's tests run.
  test: {
    shift: { grpc: 28051 - 50051, http: 28080 - 8080 },
    namespace: "crafter_test",
    env: {
      SIGNIN_LIMIT_PER_IP: "100000",
      MAIL_LIMIT_PER_IP: "100000",
      // Tests name their client IP in X-Forwarded-For (one proxy hop trusted), e.g. the lock-out
      // from a second address; every limit still reads the IP from this setting only.
      TRUST_PROXY: "1",
      WORKFLOWS_TEST_FIXTURES: "true",
      WEBSITE_AUDIT_RESOLVE: "*.crafter.test=127.0.0.1",
      // Users the tests sign up at this domain are admins (auth's ADMIN_EMAILS).
      ADMIN_EMAILS: "@admins.crafter.test",
      // Automation waits last a thousandth (PT1H = 3.6 s), so a wait is tested end to end.
      AUTOMATION_WAIT_SCALE: "0.001",
      // The kill -9 tests wait for a killed replica's Kafka session to time out, once per kill.
      KAFKA_SESSION_TIMEOUT_MS: "10000",
      // The date_field scan every 2 s, so a birthday today starts its run within the test.
      AUTOMATION_DATE_SCAN_MS: "2000",
      // Email: short leases, retries and waits, so the crash and plan-limit tests take
      // seconds; SendGrid's webhook key, whose private half signs the events in
      // services/gateway/test/email-campaigns.int.test.ts.
      EMAIL_ATTEMPT_LEASE_MS: "3000",
      EMAIL_LIMIT_RETRY_MS: "1000",
      EMAIL_DISPATCH_INTERVAL_MS: "250",
      // Automation emails waiting for a business's reconnected SendGrid key are tried every second.
      EMAIL_WAITING_RETRY_MS: "1000",
      EMAIL_RETRY_BASE_MS: "100",
      // Approval emails the SMTP server did not take are tried again every 2 s.
      APPROVAL_MAIL_RETRY_MS: "2000",
      // A user whose sendgrid_integration flag is on sends through SendGrid's API at
      // SENDGRID_API_URL, where services/notifications/test/automation-triggers.int.test.ts listens
      // (port 28025 + STACK_PORT_OFFSET); a user's flags are trusted for 1 s.
      SENDGRID_API_KEY: "SG.test-key",
      EMAIL_FLAGS_CACHE_MS: "1000",
      // Outgoing webhooks: the tests' receivers at *.crafter.test, and a retry day of about 4.3 s.
      WEBHOOKS_RESOLVE: "*.crafter.test=127.0.0.1",
      WEBHOOKS_RETRY_SCALE: "0.00005",
      SENDGRID_WEBHOOK_PUBLIC_KEY:
        "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE1M0E6dFtouxkt3FYPbRm64eTct3hAPcvoMxYDxI19H6ZLT3wkjQNc/fNDZhAudx22wnjvtBeRIDgayjwK4jfJQ==",
    },
  },
};
const base = PROFILES[profile];
if (!base) throw new Error(`unknown profile ${profile}`);
// STACK_PORT_OFFSET lets several checkouts run a test stack at once on the same servers (each with
// its own CRAFTER_NAMESPACE, so databases, topics and Redis keys stay apart).
const offset = Number(process.env.STACK_PORT_OFFSET ?? 0);
/** The port of the test profile's local DNS server (plus STACK_PORT_OFFSET): see DNS_SERVERS below. */
const TEST_DNS_PORT = 28035;
/** Where the tests' local OAuth provider listens (packages/provider-fakes/src/oauth-server.ts), + STACK_PORT_OFFSET. */
const TEST_OAUTH_PORT = 28045;
/** Where the tests' local Google Business Profile APIs listen (packages/provider-fakes/src/google-business.ts), + STACK_PORT_OFFSET. */
const TEST_GOOGLE_BUSINESS_PORT = 28048;
/** Where the tests' local TikTok listens (packages/provider-fakes/src/tiktok.ts), + STACK_PORT_OFFSET. */
const TEST_TIKTOK_PORT = 28047;
/** Where the tests' local Shopify listens (packages/provider-fakes/src/shopify.ts), + STACK_PORT_OFFSET. */
const TEST_SHOPIFY_PORT = 28049;
/** The tests' local Graph API (Facebook Login, Pages, Instagram publishing), + offset. */
const TEST_META_PORT = 28046;
/** Where the tests' local OpenID provider for Google sign-in listens (packages/provider-fakes/src/google-oidc.ts), + STACK_PORT_OFFSET. */
const TEST_OIDC_PORT = 28050;
const settings = base;

const { components } = loadManifest();
const COMPONENTS = Object.values(components);
/** The Connect/gRPC services (health-checked over grpc.health.v1); the rest serve HTTP /healthz. */
const SERVICES = COMPONENTS.filter((c) => c.protocol === "grpc").map((c) => c.name);
const port = (name) => components[name].port + settings.shift[components[name].protocol] + offset;
const address = (name) => `http://127.0.0.1:${port(name)}`;
const publicComponent = COMPONENTS.find((c) => c.public)?.name ?? "gateway";
const dir = join(root, ".data", "stack", profile);
/** A replica's port: the component's, plus 500 per replica after the first (inside one STACK_PORT_OFFSET's range). */
const REPLICA_PORT_STEP = 500;
/** `notifications-2` → { component: "notifications", index: 2 }; a component's own name is index 1. */
function instanceOf(name) {
  const match = /^(.+)-(\d+)$/.exec(name);
  if (match && components[match[1]]) return { component: match[1], index: Number(match[2]) };
  return { component: name, index: 1 };
}
const instancePort = (name) => {
  const { component, index } = instanceOf(name);
  return port(component) + REPLICA_PORT_STEP * (index - 1);
};
/** How many processes of each service `--replicas` asks for (the public gateway stays one). */
function replicasOf(name) {
  if (!replicasArg || name === publicComponent) return 1;
  if (/^\d+$/.test(replicasArg)) return Math.max(1, Number(replicasArg));
  const entry = replicasArg.split(",").find((part) => part.split("=")[0] === name);
  return entry ? Math.max(1, Number(entry.split("=")[1])) : 1;
}
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

function environment() {
  const infra = infraEnv();
  const origin = process.env.PUBLIC_ORIGIN ?? `http://localhost:${port(publicComponent)}`;
  return {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV ?? "production",
    CRAFTER_NAMESPACE: process.env.CRAFTER_NAMESPACE ?? settings.namespace,
    MONGODB_URL: process.env.MONGODB_URL ?? infra.MONGODB_URL,
    KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? infra.KAFKA_BROKERS,
    REDIS_URL: process.env.REDIS_URL ?? infra.REDIS_URL,
    SMTP_URL: process.env.SMTP_URL ?? infra.SMTP_URL,
    // Billing talks to stripe-mock (scripts/infra) unless a real Stripe is configured; the local
    // keys are test keys stripe-mock accepts, and the tests sign webhooks with the same secret.
    STRIPE_API_URL: process.env.STRIPE_API_URL ?? infra.STRIPE_API_URL ?? "",
    STRIPE_SECRET_KEY: process.env.STRIPE_SECRET_KEY ?? "sk_test_crafterlocal",
    STRIPE_WEBHOOK_SECRET: process.env.STRIPE_WEBHOOK_SECRET ?? "whsec_crafter_local",
    S3_ENDPOINT: process.env.S3_ENDPOINT ?? infra.S3_ENDPOINT,
    S3_ACCESS_KEY_ID: process.env.S3_ACCESS_KEY_ID ?? infra.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: process.env.S3_SECRET_ACCESS_KEY ?? infra.S3_SECRET_ACCESS_KEY,
    // Seals the provider keys users save on the AI settings page (workflows); kept per profile.
    AI_SETTINGS_KEY: process.env.AI_SETTINGS_KEY ?? aiSettingsKey(),
    // The key ring that seals secrets at rest (DKIM private keys; AI keys once set): "id:key,…",
    // the first seals. One key per profile, kept like the AI settings key.
    SECRETS_KEYS: process.env.SECRETS_KEYS ?? `local:${secretsKey()}`,
    // A local model server (Ollama, LM Studio) on this machine may be a user's provider.
    AI_SETTINGS_RESOLVE: process.env.AI_SETTINGS_RESOLVE ?? "localhost=127.0.0.1,127.0.0.1=127.0.0.1",
    PUBLIC_ORIGIN: origin,
    EXTRA_ORIGINS: process.env.EXTRA_ORIGINS ?? `http://127.0.0.1:${port(publicComponent)}`,
    WEB_DIST: join(root, "web/dist"),
    ...settings.env,
    // Sending domains' DNS records are checked against a local DNS server a test runs at
    // DNS_SERVERS (also written to stack.env; e2e/dns.ts); while none runs, a lookup fails, which
    // reads as "pending", as an unpublished record does.
    ...(profile === "test"
      ? {
          SENDGRID_API_URL: process.env.SENDGRID_API_URL ?? `http://127.0.0.1:${28025 + offset}`,
          // A business's own SendGrid key is checked and used at the same local server, reached
          // like every provider through the outbound module's pin.
          SENDGRID_BASE_URL: process.env.SENDGRID_BASE_URL ?? `http://sendgrid.crafter.test:${28025 + offset}`,
          DNS_SERVERS: process.env.DNS_SERVERS ?? `127.0.0.1:${TEST_DNS_PORT + offset}`,
          // Custom domains waiting for their records are checked again every 2 s (a minute in production).
          CUSTOM_DOMAIN_CHECK_MS: process.env.CUSTOM_DOMAIN_CHECK_MS ?? "2000",
          // Google (and Google Business) connect through the tests' local OAuth server, reached
          // through the outbound module's pin.
          GOOGLE_BASE_URL: process.env.GOOGLE_BASE_URL ?? `http://oauth.crafter.test:${TEST_OAUTH_PORT + offset}`,
          GOOGLE_CLIENT_ID: process.env.GOOGLE_CLIENT_ID ?? "crafter-test-google",
          GOOGLE_CLIENT_SECRET: process.env.GOOGLE_CLIENT_SECRET ?? "crafter-test-google-secret",
          // Google sign-in (auth) discovers the tests' local OpenID provider as its issuer.
          GOOGLE_OIDC_ISSUER:
            process.env.GOOGLE_OIDC_ISSUER ?? `http://google-oidc.crafter.test:${TEST_OIDC_PORT + offset}`,
          // Google Business Profile connects through the same local OAuth server; its three APIs
          // (account management, business information, v4 reviews) are one local server.
          GOOGLE_BUSINESS_BASE_URL:
            process.env.GOOGLE_BUSINESS_BASE_URL ?? `http://oauth.crafter.test:${TEST_OAUTH_PORT + offset}`,
          GOOGLE_BUSINESS_CLIENT_ID: process.env.GOOGLE_BUSINESS_CLIENT_ID ?? "crafter-test-google",
          GOOGLE_BUSINESS_CLIENT_SECRET: process.env.GOOGLE_BUSINESS_CLIENT_SECRET ?? "crafter-test-google-secret",
          GOOGLE_BUSINESS_API_URL:
            process.env.GOOGLE_BUSINESS_API_URL ?? `http://business.crafter.test:${TEST_GOOGLE_BUSINESS_PORT + offset}`,
          // TikTok: Login Kit and the Content Posting API on one local server (www.tiktok.com's and
          // open.tiktokapis.com's paths both move to TIKTOK_BASE_URL).
          TIKTOK_BASE_URL: process.env.TIKTOK_BASE_URL ?? `http://tiktok.crafter.test:${TEST_TIKTOK_PORT + offset}`,
          TIKTOK_CLIENT_ID: process.env.TIKTOK_CLIENT_ID ?? "crafter-test-tiktok",
          TIKTOK_CLIENT_SECRET: process.env.TIKTOK_CLIENT_SECRET ?? "crafter-test-tiktok-secret",
          // Shopify installs on shops at <name>.myshopify.crafter.test, served by the tests' local store.
          SHOPIFY_CLIENT_ID: process.env.SHOPIFY_CLIENT_ID ?? "crafter-test-shopify",
          SHOPIFY_CLIENT_SECRET: process.env.SHOPIFY_CLIENT_SECRET ?? "crafter-test-shopify-secret",
          SHOPIFY_ADMIN_ORIGIN: process.env.SHOPIFY_ADMIN_ORIGIN ?? `http://{shop}:${TEST_SHOPIFY_PORT + offset}`,
          SHOPIFY_SHOP_SUFFIX: process.env.SHOPIFY_SHOP_SUFFIX ?? "myshopify.crafter.test",
          // Meta connects and publishes through the tests' local Graph API (Facebook Login's dialog
          // and the Graph API on one origin); attempts cut short are looked for after 6 s, and
          // due posts every second, so the publishing tests (a kill -9 among them) stay short.
          META_BASE_URL: process.env.META_BASE_URL ?? `http://graph.crafter.test:${TEST_META_PORT + offset}`,
          META_CLIENT_ID: process.env.META_CLIENT_ID ?? "crafter-test-meta",
          META_CLIENT_SECRET: process.env.META_CLIENT_SECRET ?? "crafter-test-meta-secret",
          SOCIAL_ATTEMPT_LEASE_MS: process.env.SOCIAL_ATTEMPT_LEASE_MS ?? "6000",
          SOCIAL_SWEEP_MS: process.env.SOCIAL_SWEEP_MS ?? "1000",
          SOCIAL_RETRY_BASE_MS: process.env.SOCIAL_RETRY_BASE_MS ?? "500",
          SOCIAL_HTTP_TIMEOUT_MS: process.env.SOCIAL_HTTP_TIMEOUT_MS ?? "3000",
          INTEGRATIONS_RESOLVE:
            process.env.INTEGRATIONS_RESOLVE ??
            "oauth.crafter.test=127.0.0.1,business.crafter.test=127.0.0.1,sendgrid.crafter.test=127.0.0.1,tiktok.crafter.test=127.0.0.1,*.myshopify.crafter.test=127.0.0.1,graph.crafter.test=127.0.0.1,google-oidc.crafter.test=127.0.0.1",
        }
      : {}),
  };
}

/** AI_SETTINGS_KEY of a profile: 32 random bytes made on its first `up`, kept in .data/stack/<profile>/. */
function aiSettingsKey() {
  const file = join(dir, "ai-settings-key");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64"), { mode: 0o600 });
  }
  return readFileSync(file, "utf8").trim();
}

/** The sealing key of SECRETS_KEYS of a profile: 32 random bytes made on its first `up`, kept in .data/stack/<profile>/. */
function secretsKey() {
  const file = join(dir, "secrets-key");
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64"), { mode: 0o600 });
  }
  return readFileSync(file, "utf8").trim();
}

/**
 * One random secret per service (and the gateway), for auth's IssueServiceToken: generated on the
 * first `up` of a profile and kept in .data/stack/<profile>/service-secrets.json, so a service
 * restarted alone still matches auth. Each process gets its own as SERVICE_SECRET; auth gets the
 * table as SERVICE_SECRETS (name=secret,…).
 */
function serviceSecrets() {
  const file = join(dir, "service-secrets.json");
  const known = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const names = COMPONENTS.map(({ name }) => name);
  if (names.some((name) => !known[name])) {
    for (const name of names) known[name] ??= randomBytes(32).toString("base64url");
    writeFileSync(file, JSON.stringify(known, null, 2), { mode: 0o600 });
  }
  return known;
}

const secretTable = (secrets) =>
  Object.entries(secrets)
    .map(([name, secret]) => `${name}=${secret}`)
    .join(",");

/** The environment of one component: the common one, its port, and the address of each service it calls. */
function environmentOf(name, common) {
  const env = { ...common, PORT: String(instancePort(name)) };
  // Only the peers the manifest names: a stale <PEER>_URL from the calling shell must not hide a missing `calls`.
  for (const other of COMPONENTS) delete env[urlVar(other.name)];
  for (const peer of components[instanceOf(name).component].calls) env[urlVar(peer)] = address(peer);
  return env;
}

/**
 * Whether a process runs. A zombie (exited, not yet reaped: our detached children are reparented to
 * whatever pid 1 is, which may never reap them) answers kill(0) but is dead, so /proc decides.
 */
function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return !existsSync("/proc/self/stat"); // no procfs (not Linux): trust kill(0)
  }
}

function runningPid(name) {
  if (!existsSync(pidFile(name))) return undefined;
  const pid = Number(readFileSync(pidFile(name), "utf8"));
  return alive(pid) ? pid : undefined;
}

/**
 * grpc.health.v1.Health/Check over the Connect protocol (JSON over HTTP/2): SERVING only once the
 * service works (its consumers hold their partitions, its outbox relay ran once), so `up` returns
 * when the first event of a test is handled at once.
 */
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

async function httpHealthy(httpPort) {
  try {
    const response = await fetch(`http://127.0.0.1:${httpPort}/healthz`);
    return response.ok;
  } catch {
    return false;
  }
}

/** grpc.health.v1 for a Connect/gRPC service, GET /healthz for an HTTP one. */
const healthy = (name) =>
  components[instanceOf(name).component].protocol === "grpc"
    ? healthCheck(instancePort(name))
    : httpHealthy(instancePort(name));

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

/** Whether nothing listens on the component's port (a process still draining holds it). */
function portFree(name) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(
      instancePort(name),
      components[instanceOf(name).component].protocol === "http" ? "0.0.0.0" : "127.0.0.1",
      () => probe.close(() => resolve(true)),
    );
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The Node.js that runs the services: the version package.json pins (node_modules/.bin/node, which
 * `make` puts first on the PATH) even when this script was started by another Node, else this one.
 */
function serviceNode() {
  const pinned = join(root, "node_modules/.bin/node");
  return existsSync(pinned) ? pinned : process.execPath;
}

async function start(name, entry, env) {
  if (runningPid(name)) return false;
  // A stopped process may hold its port for a moment; starting now would die of EADDRINUSE.
  for (let waited = 0; !(await portFree(name)); waited += 200) {
    if (waited >= 30_000) throw new Error(`${name}: port ${instancePort(name)} is still in use by another process`);
    await sleep(200);
  }
  if (!existsSync(join(root, entry))) throw new Error(`${entry} is missing: run npm run build`);
  const out = openSync(logFile(name), "a");
  // The telemetry preload must run before main.js imports anything it instruments (ESM).
  const preload = `./${entry.replace(/main\.js$/, "instrument.js")}`;
  // STACK_NODE_ARGS adds node flags NODE_OPTIONS refuses, e.g. "--cpu-prof" (scripts/bench/profile.sh).
  const nodeArgs = (process.env.STACK_NODE_ARGS ?? "").split(" ").filter(Boolean);
  // Source-mapped stacks cost nothing measurable on the hot path: they are formatted only when an
  // error is logged (two fresh gateways side by side, authenticated GET /api/user/account: 75 µs of
  // CPU per request without the flag, 76 µs with it).
  const child = spawn(serviceNode(), [...nodeArgs, "--enable-source-maps", "--import", preload, entry], {
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
  const secrets = serviceSecrets();
  const started = performance.now();
  const instances = [];
  for (const { name } of COMPONENTS)
    for (let index = 1; index <= replicasOf(name); index++) instances.push(index === 1 ? name : `${name}-${index}`);
  // `up <instance>…` starts (and waits for) only those, e.g. one replica killed by the fault suite.
  if (only.length > 0) {
    const unknown = only.filter((name) => !components[instanceOf(name).component]);
    if (unknown.length > 0) throw new Error(`unknown component ${unknown.join(", ")}`);
    instances.splice(0, instances.length, ...only);
  }
  for (const instance of instances) {
    const { component: name } = instanceOf(instance);
    const own = { ...environmentOf(instance, env), SERVICE_SECRET: secrets[name] };
    await start(
      instance,
      `services/${name}/dist/main.js`,
      name === "auth" ? { ...own, SERVICE_SECRETS: secretTable(secrets) } : own,
    );
  }
  await Promise.all(instances.map((name) => waitFor(name, () => healthy(name))));
  const addresses = {
    GATEWAY_URL: `http://localhost:${port(publicComponent)}`,
    CRAFTER_NAMESPACE: env.CRAFTER_NAMESPACE,
    ...(env.OTEL_EXPORTER_OTLP_ENDPOINT ? { OTEL_EXPORTER_OTLP_ENDPOINT: env.OTEL_EXPORTER_OTLP_ENDPOINT } : {}),
    ...Object.fromEntries(SERVICES.map((name) => [urlVar(name), address(name)])),
  };
  // For tests and tools that talk to this stack (the secrets let identity tests get service tokens).
  addresses.SERVICE_SECRETS = secretTable(secrets);
  // The billing tests sign Stripe's webhooks and read what billing sent to Stripe.
  addresses.STRIPE_WEBHOOK_SECRET = env.STRIPE_WEBHOOK_SECRET;
  addresses.STRIPE_API_URL = env.STRIPE_API_URL;
  if (env.SENDGRID_API_URL) addresses.SENDGRID_API_URL = env.SENDGRID_API_URL;
  if (env.DNS_SERVERS) addresses.DNS_SERVERS = env.DNS_SERVERS;
  for (const name of [
    "GOOGLE_BASE_URL",
    "GOOGLE_CLIENT_ID",
    "GOOGLE_CLIENT_SECRET",
    "GOOGLE_BUSINESS_API_URL",
    "TIKTOK_BASE_URL",
    "TIKTOK_CLIENT_ID",
    "TIKTOK_CLIENT_SECRET",
    "SHOPIFY_CLIENT_ID",
    "SHOPIFY_CLIENT_SECRET",
    "SHOPIFY_ADMIN_ORIGIN",
    "SHOPIFY_SHOP_SUFFIX",
    "META_BASE_URL",
    "META_CLIENT_ID",
    "META_CLIENT_SECRET",
    "GOOGLE_OIDC_ISSUER",
  ])
    if (env[name]) addresses[name] = env[name];
  writeFileSync(
    join(dir, "stack.env"),
    `${Object.entries(addresses)
      .map(([key, value]) => `${key}=${value}`)
      .join("\n")}\n`,
    { mode: 0o600 },
  );
  console.log(`stack (${profile}) healthy in ${Math.round(performance.now() - started)} ms`);
  console.log(`\n  Crafter is running: ${env.PUBLIC_ORIGIN}\n`);
}

async function down() {
  // Every process of the profile, replicas included (whatever --replicas `up` was given).
  const running = existsSync(dir)
    ? readdirSync(dir)
        .filter((file) => file.endsWith(".pid"))
        .map((file) => file.slice(0, -4))
    : [];
  const names = only.length > 0 ? only : [...new Set([...COMPONENTS.map((c) => c.name).reverse(), ...running])];
  await Promise.all(
    names.map(async (name) => {
      const pid = runningPid(name);
      if (pid) {
        process.kill(pid, "SIGTERM");
        // Draining (in-flight calls, the Kafka consumer leaving its group) takes 10-25 s on a busy machine.
        const deadline = Date.now() + 30_000;
        while (alive(pid) && Date.now() < deadline) await sleep(100);
        if (alive(pid)) process.kill(pid, "SIGKILL");
        while (alive(pid)) await sleep(50);
      }
      rmSync(pidFile(name), { force: true });
    }),
  );
  console.log(`stack (${profile}) stopped${only.length > 0 ? `: ${only.join(", ")}` : ""}`);
}

async function status() {
  const replicas = existsSync(dir)
    ? readdirSync(dir)
        .filter((file) => /-\d+\.pid$/.test(file))
        .map((file) => file.slice(0, -4))
    : [];
  for (const name of [...COMPONENTS.map((c) => c.name), ...replicas]) {
    const { protocol } = components[instanceOf(name).component];
    const pid = runningPid(name);
    const ok = pid ? await healthy(name) : false;
    const where = protocol === "http" ? `http://localhost:${instancePort(name)}` : `127.0.0.1:${instancePort(name)}`;
    console.log(`${name.padEnd(14)} ${pid ? (ok ? "healthy" : "unhealthy") : "stopped"}\t${pid ?? "-"}\t${where}`);
  }
}

const commands = { up, down, status };
if (!commands[command]) {
  console.error(
    "usage: node scripts/stack.mjs up [name…]|down [name…]|status [--profile dev|test] [--replicas N|name=N,…]",
  );
  process.exit(2);
}
try {
  await commands[command]();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
