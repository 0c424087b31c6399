#!/usr/bin/env node
// The fault suite: under k6 load (sign-ups, crafts, a lead-form burst) and this script's own
// owner (a contact import, then two campaigns to the imported contacts), it stops Kafka (SIGSTOP
// for KAFKA_STOP_S), restarts Redis, and kill -9s one replica of each service at random moments,
// restarting it a few seconds later as the chart would. Then it waits until the stack is quiet
// (every consumer group caught up, the campaigns and the import finished) and checks the effects
// against the databases, Mailpit and Kafka, printing one table per run:
//   effect | checked | lost | duplicates counted | duplicates uncounted
// and exits non-zero on any loss or uncounted duplicate.
//
//   node scripts/faults/faults.mjs [--runs N] [--short] [--no-stack]
//     --runs N    N runs in a row on one stack (default 1), a summary table at the end
//     --short     the form `make test` runs: a shorter load, a smaller import and campaigns, and
//                 only second replicas killed (background work: consumers, queues, outbox relays)
//     --recheck <runId>[,…]  only the checks of earlier runs (their .data/faults/<runId>/result.json;
//                 DLQs and consumer groups as they were at each run's end), with a total table
//     --no-stack  use the running test stack as it is (else `stack.mjs up --replicas 2` first,
//                 which adds the second replicas to a running stack; scripts/test-stack.sh stops it)
//
// It faults only servers this checkout's `scripts/infra/infra up` started (their pid files under
// .data/<server>/): servers shared with other checkouts are never stopped. It leaves them running.
import { execFile, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { Admin } from "@platformatic/kafka";
import { MongoClient } from "mongodb";
import { loadManifest } from "../manifest.mjs";

const root = new URL("../..", import.meta.url).pathname;
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const RUNS = Number(option("--runs", process.env.FAULTS_RUNS ?? 1));
const SHORT = flag("--short");

/** Sizes and times of one run (seconds). The short form fits `make test`'s budget (~2–3 min). */
const PLAN = SHORT
  ? { loadS: 25, kafkaStopS: 20, importRows: 40, vus: 1, quietTimeoutS: 240 }
  : { loadS: 80, kafkaStopS: 30, importRows: 100, vus: 2, quietTimeoutS: 360 };
PLAN.kafkaStopS = Number(process.env.KAFKA_STOP_S ?? PLAN.kafkaStopS);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const rand = (lo, hi) => lo + Math.random() * (hi - lo);
const log = (...parts) => console.log(`[faults ${new Date().toISOString().slice(11, 19)}]`, ...parts);

function readEnvFile(file) {
  if (!existsSync(file)) return {};
  return Object.fromEntries(
    readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.includes("=") && !line.startsWith("#"))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

const infra = readEnvFile(join(root, ".data/infra.env"));
if (!infra.MONGODB_URL) throw new Error("infrastructure is not up: run scripts/infra/infra up");
const stackDir = join(root, ".data/stack/test");
const stackCmd = (...rest) =>
  promisify(execFile)("node", ["scripts/stack.mjs", ...rest, "--profile", "test"], { cwd: root });
const { components } = loadManifest();
const SERVICES = Object.values(components)
  .filter((c) => c.protocol === "grpc")
  .map((c) => c.name);

// ---------------------------------------------------------------------------------------------
// The servers this checkout started (pid files under .data/<server>/), and their faults.

function pidAlive(pid) {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** The pid of a server this checkout's infra started and that serves the address in infra.env, else undefined. */
function ownServerPid(server, portOf) {
  const file = join(root, `.data/${server}/${server}.pid`);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, "utf8"));
  if (!pidAlive(pid)) return undefined;
  const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  return portOf(cmdline) ? pid : undefined;
}

const kafkaPort = infra.KAFKA_BROKERS.split(",")[0].split(":")[1];
const redisPort = new URL(infra.REDIS_URL).port || "6379";
/** This checkout's broker, when it serves infra.env's address (its server.properties names the port). */
const kafkaPid = () =>
  ownServerPid(
    "kafka",
    (cmd) =>
      cmd.includes(join(root, ".data/kafka")) &&
      readFileSync(join(root, ".data/kafka/server.properties"), "utf8").includes(`:${kafkaPort}`),
  );
const redisPid = () =>
  ownServerPid("redis", (cmd) => cmd.includes(`--port ${redisPort}`) || cmd.includes(`:${redisPort}`));

let kafkaStopped = false;
let redisDown = false;

/** Kafka frozen (SIGSTOP) for `seconds`: clients time out, as on a network partition or a stalled broker. */
async function stopKafka(seconds) {
  const pid = kafkaPid();
  if (!pid) return log("kafka is not this checkout's: not stopped");
  log(`kafka (pid ${pid}) stopped for ${seconds} s`);
  kafkaStopped = true;
  process.kill(pid, "SIGSTOP");
  await sleep(seconds * 1000);
  process.kill(pid, "SIGCONT");
  kafkaStopped = false;
  log("kafka continued");
}

/**
 * Redis shut down and started again after `downS` seconds, as scripts/infra/infra starts it (with
 * its append-only file, as a deployment's Redis on a volume: queued jobs survive, the connections
 * of every service break and come back).
 */
async function restartRedis(downS) {
  const pid = redisPid();
  if (!pid) return log("redis is not this checkout's: not restarted");
  log(`redis (pid ${pid}) restarted, down ${downS} s`);
  redisDown = true;
  process.kill(pid, "SIGTERM");
  while (pidAlive(pid)) await sleep(50);
  await sleep(downS * 1000);
  startRedis();
  redisDown = false;
}

function startRedis() {
  const dir = join(root, ".data/redis");
  const out = openSync(join(dir, "redis.log"), "a");
  const child = spawn(
    "redis-server",
    [
      "--port",
      redisPort,
      "--bind",
      "127.0.0.1",
      "--dir",
      dir,
      "--save",
      "",
      "--appendonly",
      "yes",
      "--appendfsync",
      "everysec",
      "--maxmemory-policy",
      "noeviction",
      "--daemonize",
      "no",
      "--protected-mode",
      "yes",
    ],
    { cwd: dir, detached: true, stdio: ["ignore", out, out] },
  );
  closeSync(out);
  child.unref();
  writeFileSync(join(dir, "redis.pid"), `${child.pid}\n`);
}

// Whatever happens to this script, the servers keep running.
function releaseServers() {
  if (kafkaStopped) {
    const pid = kafkaPid();
    if (pid) process.kill(pid, "SIGCONT");
  }
  if (redisDown && !redisPid()) startRedis();
}
process.on("exit", releaseServers);
for (const signal of ["SIGINT", "SIGTERM"])
  process.on(signal, () => {
    releaseServers();
    process.exit(130);
  });

// ---------------------------------------------------------------------------------------------
// Replicas: kill -9 and restart (serialised: two concurrent `up`s could start one instance twice).

const pidOfInstance = (name) => {
  const file = join(stackDir, `${name}.pid`);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, "utf8"));
  return pidAlive(pid) ? pid : undefined;
};
/** The killed instance started again, alone (its health waits for Kafka when Kafka is stopped). */
const restarts = new Set();
function restartInstance(instance) {
  const started = stackCmd("up", instance).catch((error) =>
    log(`restart ${instance}: ${(error.stderr || error.message).split("\n").find((l) => l.trim()) ?? ""}`),
  );
  restarts.add(started);
  return started;
}
async function killReplica(service, chosen) {
  // The short form kills only second replicas: the gateway and the services call the first one, so
  // killing it makes those calls fail until it is back, which finds the defects the full suite
  // reports (see the README) and would make `make test` fail on them until they are fixed.
  const instance = SHORT ? `${service}-2` : (chosen ?? (Math.random() < 0.5 ? service : `${service}-2`));
  const pid = pidOfInstance(instance);
  if (!pid) return log(`${instance} is not running: not killed`);
  process.kill(pid, "SIGKILL");
  log(`kill -9 ${instance} (pid ${pid})`);
  await sleep(rand(2000, 6000));
  await restartInstance(instance);
}

// ---------------------------------------------------------------------------------------------
// A gateway client (cookies, same-origin writes), with retries while the faults make calls fail.

class Session {
  cookies = new Map();
  constructor(baseUrl) {
    this.baseUrl = baseUrl;
  }
  async request(method, path, body, headers = {}) {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(method === "GET" ? {} : { "content-type": "application/json", origin: this.baseUrl }),
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0];
      const at = pair.indexOf("=");
      const value = pair.slice(at + 1).trim();
      if (value) this.cookies.set(pair.slice(0, at).trim(), value);
    }
    const text = await response.text();
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = { raw: text.slice(0, 200) };
    }
    return { status: response.status, body: parsed };
  }
  /** Retries network errors and 5xx/429 for up to `forMs`; `ok` decides what is an answer. */
  async retry(method, path, body, { forMs = 120_000, ok = (s) => s < 500 && s !== 429, headers } = {}) {
    const deadline = Date.now() + forMs;
    for (;;) {
      try {
        const answer = await this.request(method, path, body, headers);
        if (ok(answer.status) || Date.now() > deadline) return answer;
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
      await sleep(1000);
    }
  }
}

async function mailpitSearch(query) {
  const out = [];
  for (let start = 0; ; start += 1000) {
    const response = await fetch(
      `${infra.MAILPIT_API_URL}/api/v1/search?query=${encodeURIComponent(query)}&limit=1000&start=${start}`,
    );
    const page = await response.json();
    out.push(...(page.messages ?? []));
    if ((page.messages ?? []).length < 1000) return out;
  }
}

async function verificationLink(email, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [message] = await mailpitSearch(`to:"${email}"`).catch(() => []);
    if (message) {
      const full = await (await fetch(`${infra.MAILPIT_API_URL}/api/v1/message/${message.ID}`)).json();
      const match = /[?&]token=([A-Za-z0-9_\-.%]+)/.exec(full.Text ?? "");
      if (match) return decodeURIComponent(match[1]);
    }
    await sleep(500);
  }
  return undefined;
}

const OWNER_PASSWORD = "Faults-passw0rd!";

/** The run's business owner: signed up, verified, signed in, with a project that has an address. */
async function newOwner(baseUrl, runId) {
  const s = new Session(baseUrl);
  const email = `owner-${runId}@owners.faults.test`;
  const password = OWNER_PASSWORD;
  await s.retry("POST", "/auth/signup", { email, password, displayName: "Fault Owner" });
  const token = await verificationLink(email, 180_000);
  if (!token) throw new Error(`no verification email to ${email}`);
  await s.retry("POST", "/auth/verify", { token });
  const signedIn = await s.retry("POST", "/auth/signin", { email, password });
  if (signedIn.status !== 200) throw new Error(`sign-in: ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
  const created = await s.retry("POST", "/api/projects/createProject", {
    name: "Fault Line Bikes",
    description: "A bicycle shop that repairs and rents bikes by the river.",
  });
  if (created.status !== 201) throw new Error(`project: ${created.status} ${JSON.stringify(created.body)}`);
  const { project, profile } = created.body.result;
  await s.retry("PATCH", `/api/profiles/${profile.profileId}`, {
    values: { address: "3 Quay Street, Bristol BS1 4DJ" },
  });
  const userId = JSON.parse(Buffer.from(s.cookies.get("crafter_at").split(".")[1], "base64url").toString()).sub;
  return { session: s, email, userId, projectId: project.projectId };
}

/** The import (as a Mailchimp export with opt-in times, so every row is subscribed), then two campaigns to it. */
async function ownerWork(owner, runId, rows, notes) {
  const s = owner.session;
  const domain = `${runId}.faults.test`;
  const tag = `faults-${runId}`;
  const csv = [
    "Email Address,First Name,OPTIN_TIME,TAGS",
    ...Array.from({ length: rows }, (_, i) => `r${i}@${domain},Rider${i},2025-01-05 10:00:00,${tag}`),
    "",
  ].join("\r\n");
  const uploaded = await s.retry("POST", `/api/contacts/imports?name=${tag}.csv`, csv, {
    headers: { "content-type": "text/csv" },
  });
  if (uploaded.status !== 201) throw new Error(`import upload: ${uploaded.status} ${JSON.stringify(uploaded.body)}`);
  const importId = uploaded.body.result.id;
  const started = await s.retry(
    "PUT",
    `/api/contacts/imports/${importId}`,
    { duplicates: "skip" },
    { ok: (st) => st < 500 },
  );
  if (started.status !== 200 && started.status !== 409)
    throw new Error(`import start: ${started.status} ${JSON.stringify(started.body)}`);
  notes.importId = importId;
  let state;
  const until = Date.now() + 240_000;
  for (;;) {
    state = (await s.retry("GET", `/api/contacts/imports/${importId}`)).body.result;
    if (state?.status === "result" || state?.status === "error" || Date.now() > until) break;
    await sleep(1000);
  }
  notes.importResult = state?.result ?? state;
  log(`import ${state?.status}: ${JSON.stringify(notes.importResult)}`);
  const segment = await s.retry("POST", `/api/segments?projectId=${owner.projectId}`, {
    name: `Tag ${tag}`,
    query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: tag }] },
  });
  if (segment.status >= 300) throw new Error(`segment: ${segment.status} ${JSON.stringify(segment.body)}`);
  notes.campaigns = [];
  for (const name of ["Spring rides", "Autumn repairs"]) {
    const created = await s.retry("POST", `/api/email/campaigns?projectId=${owner.projectId}`, {
      name: `${name} ${runId}`,
      segmentId: segment.body.result.id,
      subject: `${name} ${runId}, {{contact.firstName | "friend"}}`,
      html: '<p>Come by the shop. <a href="https://bikes.example/rides">See the rides</a></p>',
    });
    if (created.status !== 201) throw new Error(`campaign: ${created.status} ${JSON.stringify(created.body)}`);
    const id = created.body.result.id;
    const sent = await s.retry("POST", `/api/email/campaigns/${id}/send`, {});
    if (sent.status !== 200 && sent.status !== 409)
      throw new Error(`send: ${sent.status} ${JSON.stringify(sent.body)}`);
    notes.campaigns.push({ id, name, subjectMark: `${name} ${runId}` });
    log(`campaign "${name}" sending`);
  }
}

/**
 * The notifications replica is killed at a random moment while a campaign is sending (the window
 * between an SMTP hand-off and its record is where a duplicate can come from): the replica that
 * claimed the newest attempt, or a random one when the campaigns are not sending within the load.
 */
async function killSender(notes, windowMs) {
  const deadline = Date.now() + windowMs;
  const client = await MongoClient.connect(infra.MONGODB_URL);
  try {
    const facts = client
      .db(`${readEnvFile(join(stackDir, "stack.env")).CRAFTER_NAMESPACE}_notifications`)
      .collection("email_facts");
    while (Date.now() < deadline) {
      const ids = (notes.campaigns ?? []).map((c) => c.id);
      const sent = ids.length > 0 ? await facts.countDocuments({ campaignId: { $in: ids }, kind: "sent" }) : 0;
      if (sent > 0) {
        await sleep(rand(0, 1500));
        const [latest] = await facts
          .find({ campaignId: { $in: ids }, kind: "attempt" })
          .sort({ at: -1 })
          .limit(1)
          .toArray();
        const pid = Number(
          String(latest?.detail ?? "")
            .split(":")
            .at(-1),
        );
        const instance = ["notifications", "notifications-2"].find((name) => pidOfInstance(name) === pid);
        return await killReplica("notifications", instance);
      }
      await sleep(200);
    }
  } finally {
    await client.close();
  }
  await killReplica("notifications");
}

// ---------------------------------------------------------------------------------------------
// Kafka: end offsets of the namespace's topics, DLQs, and consumer lag.

async function kafkaState(ns) {
  const admin = new Admin({ clientId: "faults", bootstrapBrokers: infra.KAFKA_BROKERS.split(","), retries: 3 });
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(`${ns}.`));
    const meta = await admin.metadata({ topics });
    const ends = new Map();
    const listed = await admin.listOffsets({
      topics: topics.map((name) => ({
        name,
        partitions: Array.from({ length: meta.topics.get(name).partitionsCount }, (_, i) => ({
          partitionIndex: i,
          timestamp: -1n,
        })),
      })),
    });
    for (const t of listed) for (const p of t.partitions) ends.set(`${t.name}:${p.partitionIndex}`, p.offset);
    const dlq = {};
    for (const [key, offset] of ends) if (key.includes(".dlq:")) dlq[key] = Number(offset);
    const groups = [...(await admin.listGroups()).keys()].filter((g) => g.startsWith(`${ns}.`));
    let lag = 0;
    const lagging = [];
    if (groups.length > 0) {
      for (const group of await admin.listConsumerGroupOffsets({ groups })) {
        for (const t of group.topics)
          for (const p of t.partitions) {
            const end = ends.get(`${t.name}:${p.partitionIndex}`);
            if (end !== undefined && p.committedOffset >= 0n && !t.name.endsWith(".dlq") && end > p.committedOffset) {
              lag += Number(end - p.committedOffset);
              lagging.push(`${group.groupId} on ${t.name}:${p.partitionIndex}: ${end - p.committedOffset} behind`);
            }
          }
      }
    }
    return { dlq, lag, lagging, groups: groups.length };
  } finally {
    await admin.close().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------
// The checks.

function tally(name) {
  return { effect: name, checked: 0, lost: 0, counted: 0, uncounted: 0, examples: [] };
}
function note(row, kind, what) {
  row[kind]++;
  if (row.examples.length < 5) row.examples.push(`${kind}: ${what}`);
}

/**
 * Messages per address; a copy beyond the first is counted when the email's facts record as many
 * re-sends and it carries the same Message-ID (a re-send keeps it; another Message-ID is another email).
 */
function judge(row, expected, messagesTo, resentOf) {
  for (const address of expected) {
    row.checked++;
    const copies = messagesTo.get(address) ?? [];
    if (copies.length === 0) note(row, "lost", address);
    else if (copies.length > 1) {
      const extra = copies.length - 1;
      const sameMessage = new Set(copies.map((m) => m.MessageID)).size === 1;
      const counted = sameMessage ? Math.min(extra, resentOf(address)) : 0;
      row.counted += counted;
      if (extra > counted) {
        row.uncounted += extra - counted;
        if (row.examples.length < 5)
          row.examples.push(
            `uncounted: ${address}: ${copies.length} copies, ${counted} counted${sameMessage ? "" : ", different Message-IDs"}`,
          );
      }
    }
  }
}

async function check({ ns, runId, owner, notes, dlqBefore, kafka }) {
  const client = await MongoClient.connect(infra.MONGODB_URL);
  const db = (service) => client.db(`${ns}_${service}`);
  try {
    const rows = [];
    const runUsers = await db("auth")
      .collection("users")
      .find({ email: { $regex: runId } })
      .toArray();
    const messages = await mailpitSearch(runId);
    const byKind = (pattern) => {
      const map = new Map();
      for (const m of messages) {
        if (!pattern(m)) continue;
        for (const to of m.To ?? []) {
          const address = to.Address.toLowerCase();
          map.set(address, [...(map.get(address) ?? []), m]);
        }
      }
      return map;
    };
    const notifications = db("notifications");
    /** Re-sends recorded for the account emails (deliveries by event) of one template to an address. */
    const accountResent = async (template) => {
      const deliveries = await notifications
        .collection("deliveries")
        .find({ template, to: { $regex: runId } })
        .toArray();
      const facts = await notifications
        .collection("delivery_facts")
        .find({ kind: "resent", eventId: { $in: deliveries.map((d) => d.eventId) } })
        .toArray();
      const eventsResent = new Map();
      for (const f of facts) eventsResent.set(f.eventId, (eventsResent.get(f.eventId) ?? 0) + 1);
      const byAddress = new Map();
      for (const d of deliveries)
        byAddress.set(
          d.to.toLowerCase(),
          (byAddress.get(d.to.toLowerCase()) ?? 0) + (eventsResent.get(d.eventId) ?? 0),
        );
      return (address) => byAddress.get(address) ?? 0;
    };

    // Sign-ups: mailed once, verified (the emailed link works), credited once.
    const verifyMail = byKind((m) => /verify-email@/.test(m.MessageID) || /verify/i.test(m.Subject));
    const mailed = tally("sign-up verification emailed");
    judge(
      mailed,
      runUsers.map((u) => u.email.toLowerCase()),
      verifyMail,
      await accountResent("verify-email"),
    );
    // Every sign-up the gateway accepted is stored (a stored one may have lost its answer to a kill).
    if (runUsers.length < notes.accepted.signUps)
      note(mailed, "lost", `${notes.accepted.signUps} sign-ups accepted, ${runUsers.length} stored`);
    rows.push(mailed);

    const verified = tally("sign-up verified");
    let verifiedByCheck = 0;
    const base = readEnvFile(join(stackDir, "stack.env")).GATEWAY_URL;
    for (const user of runUsers) {
      verified.checked++;
      if (user.emailVerified) continue;
      // The load gave up waiting (its mail wait is bounded): the person opens the link now.
      const token =
        (verifyMail.get(user.email.toLowerCase()) ?? []).length > 0
          ? await verificationLink(user.email, 5000)
          : undefined;
      const answer = token ? await new Session(base).request("POST", "/auth/verify", { token }) : { status: 0 };
      const after = await db("auth").collection("users").findOne({ _id: user._id });
      if (answer.status === 200 && after?.emailVerified) verifiedByCheck++;
      else note(verified, "lost", `${user.email} (verify answered ${answer.status})`);
    }
    rows.push(verified);

    const ledger = db("billing").collection("ledger_entries");
    const credited = tally("sign-up credited (free tier)");
    const userIds = runUsers.map((u) => String(u._id));
    const grants = await ledger.find({ key: { $in: userIds.map((id) => `grant:free-tier:${id}`) } }).toArray();
    const grantCount = new Map();
    for (const g of grants) grantCount.set(g.userId, (grantCount.get(g.userId) ?? 0) + 1);
    for (const id of userIds) {
      credited.checked++;
      const n = grantCount.get(id) ?? 0;
      if (n === 0) note(credited, "lost", id);
      else if (n > 1) note(credited, "uncounted", `${id}: ${n} grants`);
    }
    rows.push(credited);

    // Ledgers: gap-free entries, and the balance each records equals the sum of the entries.
    const balances = tally("ledger balance = sum of entries");
    const entries = await ledger.find({ userId: { $in: userIds } }).toArray();
    const perUser = new Map();
    for (const e of entries) perUser.set(e.userId, [...(perUser.get(e.userId) ?? []), e]);
    const snapshots = new Map(
      (
        await db("billing")
          .collection("balances")
          .find({ _id: { $in: userIds } })
          .toArray()
      ).map((b) => [b._id, b]),
    );
    for (const [userId, list] of perUser) {
      balances.checked++;
      list.sort((a, b) => a.seq - b.seq);
      let sum = 0;
      for (const e of list) sum += e.kind === "debit" ? -e.amount : e.amount;
      const gaps = list.some((e, i) => i > 0 && e.seq !== list[i - 1].seq + 1);
      const last = list.at(-1);
      const snapshot = snapshots.get(userId);
      const snapshotSum = snapshot?.seq === last.seq ? snapshot.grants.reduce((t, g) => t + g.remaining, 0) : sum;
      if (gaps || last.balanceAfter !== sum || snapshotSum !== sum)
        note(
          balances,
          "lost",
          `${userId}: entries sum ${sum}, last balanceAfter ${last.balanceAfter}, snapshot ${snapshotSum}${gaps ? ", seq gap" : ""}`,
        );
    }
    rows.push(balances);

    // Lead-form submissions: every accepted one recorded once, its contact stored once, and the
    // double opt-in emailed once. A submission refused because its contacts replica died after
    // storing the contact (the visitor saw an error) leaves a pending contact without one: noted.
    const submissions = await db("contacts")
      .collection("lead_submissions")
      .find({ email: { $regex: `^lead-${runId}` } })
      .toArray();
    const leadSubmissions = tally("lead-form submission recorded");
    const perEmail = new Map();
    for (const sub of submissions) perEmail.set(sub.email, [...(perEmail.get(sub.email) ?? []), sub]);
    leadSubmissions.checked = Math.max(perEmail.size, notes.accepted.submissions);
    // Each load iteration submits a new address once.
    for (const [email, list] of perEmail)
      if (list.length > 1) note(leadSubmissions, "uncounted", `${email}: ${list.length} submissions`);
    if (perEmail.size < notes.accepted.submissions)
      note(leadSubmissions, "lost", `${notes.accepted.submissions} submissions accepted, ${perEmail.size} recorded`);
    rows.push(leadSubmissions);

    const leads = await db("contacts")
      .collection("contacts")
      .find({ email: { $regex: `^lead-${runId}` } })
      .toArray();
    const leadContacts = tally("lead-form contact stored");
    const leadCount = new Map();
    for (const c of leads) leadCount.set(c.email, (leadCount.get(c.email) ?? 0) + 1);
    for (const email of perEmail.keys()) {
      leadContacts.checked++;
      const n = leadCount.get(email) ?? 0;
      if (n === 0) note(leadContacts, "lost", email);
      else if (n > 1) note(leadContacts, "uncounted", `${email}: ${n} contacts`);
    }
    const orphans = [...leadCount.keys()].filter((email) => !perEmail.has(email));
    if (orphans.length > 0)
      leadContacts.examples.push(
        `${orphans.length} contact(s) without a submission (refused mid-way): ${orphans.slice(0, 3).join(", ")}`,
      );
    rows.push(leadContacts);

    const consentMail = tally("lead-form double opt-in emailed");
    judge(
      consentMail,
      // Every load address is new, so each submission asks for the double opt-in.
      [...perEmail.keys()].map((email) => email.toLowerCase()),
      byKind((m) => /confirm-subscription@/.test(m.MessageID) || /confirm/i.test(m.Subject)),
      await accountResent("confirm-subscription"),
    );
    rows.push(consentMail);

    // The import: every row applied once.
    const imported = tally("import row applied");
    const domain = `${runId}.faults.test`;
    const expected = Array.from({ length: notes.rows }, (_, i) => `r${i}@${domain}`);
    if (owner) {
      const stored = await db("contacts")
        .collection("contacts")
        .find({ userId: owner.userId, email: { $regex: `@${runId}` } })
        .toArray();
      const count = new Map();
      for (const c of stored) count.set(c.email.toLowerCase(), (count.get(c.email.toLowerCase()) ?? 0) + 1);
      for (const address of expected) {
        imported.checked++;
        const n = count.get(address) ?? 0;
        if (n === 0) note(imported, "lost", address);
        else if (n > 1) note(imported, "uncounted", `${address}: ${n} contacts`);
      }
      const r = notes.importResult ?? {};
      if (r.created !== undefined && r.created + (r.updated ?? 0) + (r.skipped ?? 0) !== notes.rows)
        imported.examples.push(`import result ${JSON.stringify(r)}`);
    } else imported.examples.push("no owner: the import did not run");
    rows.push(imported);

    // The campaigns: every recipient one email (the same Message-ID), or counted as a possible duplicate.
    for (const campaign of notes.campaigns ?? []) {
      const row = tally(`campaign "${campaign.name}" recipient emailed`);
      const deliveries = await notifications.collection("email_deliveries").find({ campaignId: campaign.id }).toArray();
      const resent = new Set(
        (await notifications.collection("email_facts").find({ campaignId: campaign.id, kind: "resent" }).toArray()).map(
          (f) => f.deliveryId,
        ),
      );
      const resentByAddress = new Map(deliveries.map((d) => [d.email.toLowerCase(), resent.has(d._id) ? 1 : 0]));
      judge(
        row,
        expected,
        byKind((m) => (m.Subject ?? "").includes(campaign.subjectMark)),
        (address) => resentByAddress.get(address) ?? 0,
      );
      const answer = await owner.session.retry("GET", `/api/email/campaigns/${campaign.id}`);
      const stats = answer.body.result?.stats ?? {};
      row.examples.push(
        `campaign ${answer.body.result?.status}: sent ${stats.sent}, possibleDuplicates ${stats.possibleDuplicates}, failed ${stats.failed}`,
      );
      rows.push(row);
    }

    // The plan's email counter counts every campaign email that may have left (each one Mailpit got).
    if (owner && (notes.campaigns ?? []).length > 0) {
      const plan = tally("plan's email counter covers every email received");
      const entries = await db("billing")
        .collection("usage_entries")
        .find({ userId: owner.userId, counter: "emails" })
        .toArray();
      const counted = entries.reduce((sum, entry) => sum + Number(entry.delta), 0);
      const received = messages.filter((m) =>
        (notes.campaigns ?? []).some((c) => (m.Subject ?? "").includes(c.subjectMark)),
      ).length;
      plan.checked = received;
      if (counted < received) {
        plan.uncounted = received - counted;
        plan.examples.push(`${received} campaign emails received, the plan counted ${counted}`);
      }
      rows.push(plan);
    }

    // DLQs: no event of this run left in one.
    const dlq = tally("events not in a DLQ");
    for (const [key, end] of Object.entries(kafka.dlq)) {
      dlq.checked++;
      const added = end - (dlqBefore[key] ?? 0);
      if (added > 0) note(dlq, "lost", `${key}: ${added} new`);
    }
    rows.push(dlq);

    // Every consumer group caught up: an event left behind a stalled member is never handled.
    const consumed = tally("consumer groups caught up");
    consumed.checked = kafka.groups ?? 0;
    for (const behind of kafka.lagging ?? []) note(consumed, "lost", behind);
    rows.push(consumed);
    return { rows, verifiedByCheck, users: runUsers.length };
  } finally {
    await client.close();
  }
}

function printTable(title, rows) {
  const head = ["effect", "checked", "lost", "dup counted", "dup uncounted"];
  const body = rows.map((r) => [r.effect, r.checked, r.lost, r.counted, r.uncounted].map(String));
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ")} |`;
  console.log(
    `\n${title}\n${line(head)}\n|${widths.map((w, i) => (i === 0 ? "-" : "") + "-".repeat(w + 1) + (i === 0 ? "" : ":")).join("|")}|`,
  );
  for (const b of body) console.log(line(b));
}

/** What the load saw accepted (k6's check passes): sign-ups answered 200, lead-form submissions answered 200. */
function acceptedByLoad(outDir, scenarios) {
  const passes = (scenario, name) => {
    try {
      return JSON.parse(readFileSync(join(outDir, `${scenario}.json`), "utf8")).root_group.checks[name]?.passes ?? 0;
    } catch {
      return 0;
    }
  };
  return {
    signUps: scenarios.reduce((sum, scenario) => sum + passes(scenario, "sign-up 200"), 0),
    submissions: passes("lead-form-burst", "submission 200"),
  };
}

/** test-results/faults.xml: one case per run and effect, for scripts/ci/test-summary.mjs's totals. */
function writeJunit(results) {
  const xml = (text) => String(text).replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const cases = results.flatMap((r) => [
    ...r.rows.map((row) => {
      const failure =
        row.lost > 0 || row.uncounted > 0
          ? `<failure message="${xml(`${row.lost} lost, ${row.uncounted} uncounted duplicates`)}">${xml(row.examples.join("\n"))}</failure>`
          : "";
      return `  <testcase classname="faults.${r.runId}" name="${xml(row.effect)}">${failure}</testcase>`;
    }),
    ...(r.failed
      ? [
          `  <testcase classname="faults.${r.runId}" name="owner's import and campaigns"><failure message="${xml(r.error)}"/></testcase>`,
        ]
      : []),
  ]);
  const failures = cases.filter((c) => c.includes("<failure")).length;
  mkdirSync(join(root, "test-results"), { recursive: true });
  writeFileSync(
    join(root, "test-results/faults.xml"),
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n<testsuite name="faults" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">\n${cases.join("\n")}\n</testsuite>\n</testsuites>\n`,
  );
}

/**
 * Outbox entries written since `since` that the relays have not published yet, over every
 * service's database: each document with such an entry, its ids checked one by one against
 * `outbox_published` (by `_id`, which FerretDB pushes down). Until it is 0 an effect may only be late.
 */
async function unrelayedOutbox(ns, since) {
  const client = await MongoClient.connect(infra.MONGODB_URL);
  let pending = 0;
  try {
    for (const service of SERVICES) {
      const db = client.db(`${ns}_${service}`.replace(/-/g, "_"));
      const published = db.collection("outbox_published");
      for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
        if (name === "outbox_published" || name.startsWith("system.")) continue;
        const docs = await db
          .collection(name)
          .find({ "outbox.time": { $gte: since } }, { projection: { outbox: 1 } })
          .toArray();
        for (const doc of docs)
          for (const entry of doc.outbox ?? [])
            if (entry.time >= since && !(await published.findOne({ _id: entry.id }, { projection: { _id: 1 } })))
              pending++;
      }
    }
  } finally {
    await client.close();
  }
  return pending;
}

// ---------------------------------------------------------------------------------------------
// One run.

async function run(index, k6) {
  const stack = readEnvFile(join(stackDir, "stack.env"));
  const ns = stack.CRAFTER_NAMESPACE;
  const runId = `f${Date.now().toString(36)}${randomBytes(2).toString("hex")}`;
  const outDir = join(root, ".data/faults", runId);
  mkdirSync(outDir, { recursive: true });
  log(`run ${index}: ${runId} (${SHORT ? "short" : "full"}: load ${PLAN.loadS} s, kafka stopped ${PLAN.kafkaStopS} s)`);
  const runStarted = new Date();
  const before = await kafkaState(ns);
  const owner = await newOwner(stack.GATEWAY_URL, runId);
  const notes = { rows: PLAN.importRows };

  // The load (its thresholds are not the point here: faults make requests fail; the checks decide).
  const k6env = {
    ...process.env,
    BASE_URL: stack.GATEWAY_URL,
    MAILPIT_API_URL: infra.MAILPIT_API_URL,
    RUN_ID: runId,
    VUS: String(PLAN.vus),
    DURATION: `${PLAN.loadS}s`,
    THINK_S: "0.2",
    MAIL_WAIT_S: "90",
    P95_SCALE: "100",
    MAX_ERROR_RATE: "1",
    K6_NO_USAGE_REPORT: "true",
  };
  const scenarios = ["signup-storm", "crafting", "lead-form-burst"];
  const loads = scenarios.map(
    (scenario) =>
      new Promise((resolve) => {
        const out = openSync(join(outDir, `${scenario}.log`), "w");
        const child = spawn(
          k6,
          ["run", "--quiet", "--summary-export", join(outDir, `${scenario}.json`), `deploy/k6/${scenario}.js`],
          {
            cwd: root,
            env: k6env,
            stdio: ["ignore", out, out],
          },
        );
        closeSync(out);
        child.on("exit", (code) => resolve({ scenario, code }));
      }),
  );
  // The import (and the campaigns after it) starts at a random moment of the first quarter of the load.
  const work = sleep(rand(0, (PLAN.loadS * 1000) / 4))
    .then(() => ownerWork(owner, runId, PLAN.importRows, notes))
    .catch((error) => {
      notes.error = error.message;
      log(`owner's work: ${error.message}`);
    });

  // The faults, at random moments of the load.
  const window = PLAN.loadS * 1000;
  const chaos = [
    (async () => {
      await sleep(rand(5_000, Math.max(6_000, window - PLAN.kafkaStopS * 1000)));
      await stopKafka(PLAN.kafkaStopS);
    })(),
    (async () => {
      await sleep(rand(3_000, window));
      await restartRedis(3);
    })(),
    ...SERVICES.filter((s) => s !== "notifications").map(async (service) => {
      await sleep(rand(3_000, window));
      await killReplica(service);
    }),
    // The campaigns may start sending after the load (the import runs under the faults first).
    killSender(notes, window + 120_000),
  ];
  await Promise.all(chaos);
  const loadResults = await Promise.all(loads);
  await work;
  await Promise.all(restarts);
  restarts.clear();
  // Every instance up again (a restart during the Kafka stop may have timed out waiting for health).
  for (let attempt = 1; ; attempt++) {
    try {
      await stackCmd("up", "--replicas", "2");
      break;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
  log(`load done: ${loadResults.map((r) => `${r.scenario} exit ${r.code}`).join(", ")}; waiting for quiet`);

  // Quiet: all instances up, every outbox entry of the run relayed, every consumer caught up, the campaigns done.
  const quietBy = Date.now() + PLAN.quietTimeoutS * 1000;
  let kafka = before;
  for (;;) {
    kafka = await kafkaState(ns).catch(() => ({ dlq: {}, lag: Number.NaN, lagging: ["lag not read"], groups: 0 }));
    const campaigns = await Promise.all(
      (notes.campaigns ?? []).map(
        async (c) => (await owner.session.retry("GET", `/api/email/campaigns/${c.id}`)).body.result?.status,
      ),
    );
    const caughtUp = kafka.lag === 0 && campaigns.every((s) => s === "sent" || s === "failed");
    // Read only once the rest is quiet: it scans the collections the run wrote to.
    const unrelayed = caughtUp ? await unrelayedOutbox(ns, runStarted).catch(() => Number.NaN) : "-";
    const done = caughtUp && unrelayed === 0;
    if (done || Date.now() > quietBy) {
      log(
        `quiet: unrelayed ${unrelayed}, lag ${kafka.lag}, campaigns ${campaigns.join(",") || "-"}${done ? "" : " (timed out)"}`,
      );
      break;
    }
    await sleep(3000);
  }
  await sleep(3000); // the last SMTP hand-offs reach Mailpit's store
  notes.accepted = acceptedByLoad(outDir, scenarios);
  const result = await check({ ns, runId, owner, notes, dlqBefore: before.dlq, kafka });
  printTable(
    `run ${index} (${runId}): ${result.users} sign-ups, ${result.verifiedByCheck} verified by the check after the load gave up waiting${notes.error ? `; owner's work failed: ${notes.error}` : ""}`,
    result.rows,
  );
  for (const row of result.rows) for (const example of row.examples) console.log(`  ${row.effect}: ${example}`);
  const saved = { email: owner.email, userId: owner.userId, projectId: owner.projectId };
  writeFileSync(
    join(outDir, "result.json"),
    JSON.stringify({ runId, plan: PLAN, owner: saved, dlqBefore: before.dlq, notes, ...result }, null, 2),
  );
  return { runId, ...result, failed: Boolean(notes.error), error: notes.error };
}

/** The checks of an earlier run again, on what its result.json kept (e.g. after looking into a loss). */
async function recheck(runId) {
  const saved = JSON.parse(readFileSync(join(root, ".data/faults", runId, "result.json"), "utf8"));
  const stack = readEnvFile(join(stackDir, "stack.env"));
  const session = new Session(stack.GATEWAY_URL);
  const email = saved.owner?.email ?? `owner-${runId}@owners.faults.test`;
  const signedIn = await session.retry("POST", "/auth/signin", { email, password: OWNER_PASSWORD });
  const userId =
    saved.owner?.userId ??
    JSON.parse(Buffer.from(session.cookies.get("crafter_at").split(".")[1], "base64url").toString()).sub;
  if (signedIn.status !== 200) throw new Error(`the owner's sign-in: ${signedIn.status}`);
  const owner = { email, userId, session };
  const kafka = await kafkaState(stack.CRAFTER_NAMESPACE);
  // A run from before result.json kept its DLQ offsets: the DLQs as they are now.
  const dlqBefore = saved.dlqBefore ?? kafka.dlq;
  const result = await check({ ns: stack.CRAFTER_NAMESPACE, runId, owner, notes: saved.notes, dlqBefore, kafka });
  // The DLQs and the consumer groups as they were at the run's end, not as they are now.
  const atEnd = new Set(["events not in a DLQ", "consumer groups caught up"]);
  result.rows = result.rows.flatMap((row) => {
    if (!atEnd.has(row.effect)) return [row];
    const kept = saved.rows?.find((r) => r.effect === row.effect);
    return kept ? [kept] : [];
  });
  printTable(`recheck of ${runId}`, result.rows);
  for (const row of result.rows) for (const example of row.examples) console.log(`  ${row.effect}: ${example}`);
  return { runId, ...result, failed: false };
}

// ---------------------------------------------------------------------------------------------

const again = option("--recheck");
const k6 = again ? "" : spawnSync("scripts/load/install-k6.sh", { cwd: root, encoding: "utf8" }).stdout.trim();
if (!flag("--no-stack") && !again) {
  log("test stack at two replicas");
  const { stdout } = await stackCmd("up", "--replicas", "2");
  process.stdout.write(stdout);
}
const results = [];
try {
  if (again) for (const runId of again.split(",")) results.push(await recheck(runId));
  else for (let i = 1; i <= RUNS; i++) results.push(await run(i, k6));
} finally {
  releaseServers();
}
const total = new Map();
for (const r of results)
  for (const row of r.rows) {
    const t = total.get(row.effect) ?? { ...tally(row.effect) };
    for (const k of ["checked", "lost", "counted", "uncounted"]) t[k] += row[k];
    total.set(row.effect, t);
  }
if (results.length > 1) printTable(`all ${results.length} runs`, [...total.values()]);
const bad = [...total.values()].some((t) => t.lost > 0 || t.uncounted > 0) || results.some((r) => r.failed);
writeJunit(results);
console.log(bad ? "\nfaults: LOSS or uncounted duplicate (see above)" : "\nfaults: 0 lost, 0 uncounted duplicates");
process.exit(bad ? 1 : 0);
