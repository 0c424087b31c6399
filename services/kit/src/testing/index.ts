import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import mongoose, { type Connection } from "mongoose";
import { createLogger } from "../logger/logger";
import { createRedis, type Redis } from "../redis/redis";
import type { ServiceCredentials } from "../rpc/identity";
import { serviceCredentials } from "../rpc/service-credentials";

/**
 * Repository root: the nearest folder above this module that holds `services/kit` (this file is
 * services/kit/src/testing/index.ts, or a benchmark bundled into .data/bench).
 */
export const repoRoot = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "services/kit/package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
})();

function readEnvFile(path: string): Record<string, string> {
  try {
    return Object.fromEntries(
      readFileSync(path, "utf8")
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith("#") && line.includes("="))
        .map((line) => {
          const at = line.indexOf("=");
          return [line.slice(0, at).replace(/^export\s+/, ""), line.slice(at + 1).replace(/^"|"$/g, "")];
        }),
    );
  } catch {
    return {};
  }
}

/**
 * Addresses of the running stack for tests and benchmarks: the environment (set by
 * scripts/test-stack.sh) over `.data/stack/<STACK_PROFILE, default test>/stack.env` (written by
 * scripts/stack.mjs) over `.data/infra.env` (written by scripts/infra).
 */
export function stackEnv(): Record<string, string> {
  return {
    ...readEnvFile(join(repoRoot, ".data/infra.env")),
    ...readEnvFile(join(repoRoot, ".data/stack", process.env.STACK_PROFILE ?? "test", "stack.env")),
    ...(Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)) as Record<string, string>),
  };
}

/**
 * The credentials of service `name` on the running stack: its secret from SERVICE_SECRETS (written
 * to .data/stack/<profile>/stack.env by scripts/stack.mjs), exchanged at AUTH_URL.
 * @throws when the stack's SERVICE_SECRETS has no secret for `name`.
 */
export function stackServiceCredentials(name: string, timeoutMs = 30_000): ServiceCredentials {
  const env = stackEnv();
  const secret = (env.SERVICE_SECRETS ?? "")
    .split(",")
    .map((entry) => entry.split("="))
    .find(([key]) => key === name)?.[1];
  if (!secret) throw new Error(`no secret for ${name} in SERVICE_SECRETS: source .data/stack/<profile>/stack.env`);
  return serviceCredentials({ name, secret, authUrl: env.AUTH_URL ?? "http://127.0.0.1:50051", timeoutMs });
}

export function gatewayUrl(): string {
  return stackEnv().GATEWAY_URL ?? "http://127.0.0.1:8080";
}

/** A fresh address per test run, so tests never collide with earlier data. */
export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.test`;
}

export interface MailpitMessage {
  ID: string;
  Subject: string;
  To: { Address: string }[];
  Text: string;
  HTML: string;
}

/**
 * Waits for the newest email to `to` whose subject contains `subject`, read from Mailpit's API.
 * @throws after `timeoutMs` (default 20 s) with what the mailbox held.
 */
export async function waitForEmail(to: string, subject: string, timeoutMs = 20_000): Promise<MailpitMessage> {
  const api = stackEnv().MAILPIT_API_URL ?? "http://127.0.0.1:8025";
  const deadline = Date.now() + timeoutMs;
  let seen: string[] = [];
  while (Date.now() < deadline) {
    const response = await fetch(`${api}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`);
    const body = (await response.json()) as { messages: { ID: string; Subject: string }[] };
    seen = body.messages.map((message) => message.Subject);
    const hit = body.messages.find((message) => message.Subject.includes(subject));
    if (hit) return (await (await fetch(`${api}/api/v1/message/${hit.ID}`)).json()) as MailpitMessage;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no email "${subject}" to ${to} within ${timeoutMs} ms; saw: ${JSON.stringify(seen)}`);
}

/** The first link in an email's text whose path starts with `path` (e.g. "/verify"). */
export function linkFrom(message: MailpitMessage, path: string): URL {
  const links = [...message.Text.matchAll(/https?:\/\/[^\s)>"]+/g)].map((match) => new URL(match[0]));
  const link = links.find((url) => url.pathname.startsWith(path));
  if (!link) throw new Error(`no ${path} link in email: ${message.Text}`);
  return link;
}

export interface EnvelopeResponse<T = any> {
  status: number;
  body: {
    success: boolean;
    result: T;
    errorMessage: string | null;
    /** Null on success; typed non-null so tests can assert on it directly. */
    error: { code: string; fields: Record<string, string> };
  };
  headers: Headers;
}

/**
 * A browser-like client of the gateway: keeps cookies, sends the same-origin `Origin` and JSON
 * content type on writes (the CSRF rules), and returns status + envelope.
 */
export class GatewaySession {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl = gatewayUrl()) {}

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<EnvelopeResponse<T>> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(method === "GET" ? {} : { "content-type": "application/json", origin: this.baseUrl }),
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      redirect: "manual",
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1).trim();
      const expired = attributes.some((attr) => /max-age=0|expires=thu, 01 jan 1970/i.test(attr.trim()));
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let parsed: EnvelopeResponse<T>["body"];
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(`${method} ${path} → ${response.status} non-JSON body: ${text.slice(0, 200)}`);
    }
    return { status: response.status, body: parsed, headers: response.headers };
  }

  get = <T = any>(path: string) => this.request<T>("GET", path);
  post = <T = any>(path: string, body: unknown = {}) => this.request<T>("POST", path, body);
  put = <T = any>(path: string, body: unknown = {}) => this.request<T>("PUT", path, body);
}

/**
 * A fresh database on the real MongoDB-compatible server of scripts/infra, named
 * `inttest_<name>_<random>`; `drop()` removes it and closes the connection (call it in afterAll).
 */
export async function throwawayDatabase(name: string): Promise<{ connection: Connection; drop(): Promise<void> }> {
  const connection = await mongoose
    .createConnection(stackEnv().MONGODB_URL ?? "mongodb://127.0.0.1:27017/", {
      dbName: `inttest_${name}_${randomUUID().slice(0, 8)}`,
      serverSelectionTimeoutMS: 5000,
    })
    .asPromise();
  return {
    connection,
    async drop() {
      await connection.dropDatabase();
      await connection.close();
    },
  };
}

/**
 * A Redis client on the server of scripts/infra whose keys all start with a fresh prefix
 * `inttest-<name>-<random>:`; `drop()` deletes those keys and disconnects (call it in afterAll).
 */
export function throwawayRedis(name: string): { redis: Redis; drop(): Promise<void> } {
  const redis = createRedis(
    stackEnv().REDIS_URL ?? "redis://127.0.0.1:6379",
    `inttest-${name}-${randomUUID().slice(0, 8)}`,
    createLogger(`inttest-${name}`, "silent"),
  );
  return {
    redis,
    async drop() {
      // KEYS takes and answers full names (ioredis prefixes keys, not patterns); DEL prefixes what it is given.
      const prefix = redis.options.keyPrefix ?? "";
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys.map((key) => key.slice(prefix.length)));
      redis.disconnect();
    },
  };
}

/**
 * Signs up a fresh user through the gateway, verifies the email from Mailpit and signs in:
 * the session a real user has after the verification link (/api refuses unverified users).
 * @returns the signed-in session and its email (password "password-123").
 */
export async function verifiedSession(prefix = "user"): Promise<{ session: GatewaySession; email: string }> {
  const session = new GatewaySession();
  const email = uniqueEmail(prefix);
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  const signIn = await session.post("/auth/signin", { email, password: "password-123" });
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${JSON.stringify(signIn.body)}`);
  return { session, email };
}

/**
 * A verified user for RPC tests: signs up through auth's RPC, verifies from Mailpit, signs in.
 * @returns the user's id, access token and the `authorization` headers to pass as call options.
 */
export async function verifiedRpcUser(prefix = "user"): Promise<{
  email: string;
  userId: string;
  accessToken: string;
  headers: { authorization: string };
}> {
  const { createServiceClient } = await import("../rpc/client");
  const { AuthService } = await import("@crafter/proto/crafter/auth/v1/auth_pb");
  const auth = createServiceClient(AuthService, stackEnv().AUTH_URL!, { timeoutMs: 30_000 });
  const email = uniqueEmail(prefix);
  const password = "correct horse battery";
  await auth.signUp({ email, password, displayName: "Test User" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await auth.verifyEmail({ token });
  const { session } = await auth.signIn({ email, password, ip: "127.0.0.1" });
  const accessToken = session!.accessToken;
  const userId = session!.user!.userId;
  return { email, userId, accessToken, headers: { authorization: `Bearer ${accessToken}` } };
}

/** Whether `pid` is a live process: zombies (killed, not yet reaped) count as gone. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat[stat.lastIndexOf(")") + 2] !== "Z";
  } catch {
    return !existsSync("/proc/self/stat");
  }
}

/**
 * `kill -9 pid`, then waits until the process is gone (polls every 20 ms, at most `timeoutMs`).
 * A process takes a moment to die after SIGKILL (longer with a large heap on a loaded machine);
 * `stack.mjs up` called in that moment sees it running, starts nothing and then finds it dead.
 * @throws Error when it is still alive after `timeoutMs`.
 */
export async function killHard(pid: number, timeoutMs = 10_000): Promise<void> {
  process.kill(pid, "SIGKILL");
  const until = Date.now() + timeoutMs;
  while (processAlive(pid)) {
    if (Date.now() > until) throw new Error(`pid ${pid} still alive ${timeoutMs} ms after SIGKILL`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
