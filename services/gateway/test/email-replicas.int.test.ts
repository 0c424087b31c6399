import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { type GatewaySession, killHard, repoRoot, stackEnv, verifiedSession } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import mongoose, { type Connection } from "mongoose";
import { newContactDoc } from "../../contacts/src/usecases/contacts";
import { forgetContactSnapshot } from "../../contacts/test/seeded-contacts";

// Two replicas of the notifications service on the real test stack (the second one started here
// with `stack.mjs up --replicas notifications=2` when the stack runs only one), Mailpit behind
// them. The replica sending a campaign is killed with SIGKILL in the middle of its sends, five
// times; every recipient must get the email once, or be counted as a possible duplicate, and the
// campaign's figures and the plan's counter must cover every email Mailpit received.
jest.setTimeout(900_000);

const env = stackEnv();
const mailpit = env.MAILPIT_API_URL ?? "http://127.0.0.1:8025";
const namespace = env.CRAFTER_NAMESPACE ?? process.env.CRAFTER_NAMESPACE ?? "crafter_test";
const stackDir = join(repoRoot, ".data/stack/test");
const RECIPIENTS = 100;
const KILLS = 5;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const stack = (...args: string[]) =>
  promisify(execFile)("node", ["scripts/stack.mjs", ...args, "--profile", "test"], { cwd: repoRoot });
/** Both replicas stopped, then started again with `settings` over the stack's environment. */
async function restartBoth(settings: Record<string, string>) {
  await stack("down", "notifications", "notifications-2");
  await promisify(execFile)("node", ["scripts/stack.mjs", "up", "--replicas", "notifications=2", "--profile", "test"], {
    cwd: repoRoot,
    env: { ...process.env, ...settings },
  });
}

let contactsDb: Connection;
let notificationsDb: Connection;
let billingDb: Connection;
let startedSecond = false;

function pidOf(instance: string): number | null {
  const file = join(stackDir, `${instance}.pid`);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, "utf8"));
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

beforeAll(async () => {
  const connect = (service: string) =>
    mongoose
      .createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", { dbName: `${namespace}_${service}` })
      .asPromise();
  [contactsDb, notificationsDb, billingDb] = await Promise.all([
    connect("contacts"),
    connect("notifications"),
    connect("billing"),
  ]);
  if (!pidOf("notifications-2")) {
    await stack("up", "--replicas", "notifications=2");
    startedSecond = true;
  }
});

afterAll(async () => {
  if (startedSecond) await stack("down", "notifications-2");
  await Promise.all([contactsDb?.close(), notificationsDb?.close(), billingDb?.close()]);
});

async function owner(): Promise<{ session: GatewaySession; projectId: string; userId: string }> {
  const { session } = await verifiedSession("replicas");
  const created = await session.post("/api/projects/createProject", {
    name: "Crumb & Co. Bakery",
    description: "A neighbourhood sourdough bakery baking naturally leavened bread every morning.",
  });
  expect(created.status).toBe(201);
  const address = await session.request("PATCH", `/api/profiles/${created.body.result.profile.profileId}`, {
    values: { address: "12 Mill Lane, Bristol BS1 4DJ" },
  });
  expect(address.status).toBe(200);
  const token = session.cookies.get("crafter_at")!;
  const userId = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).sub as string;
  return { session, projectId: created.body.result.project.projectId as string, userId };
}

/** `count` subscribed contacts at `domain`, tagged `tag`, written in the contacts service's own shape. */
async function seed(userId: string, projectId: string, tag: string, domain: string, count: number) {
  const now = new Date();
  const docs = Array.from({ length: count }, (_, i) => ({
    ...newContactDoc(
      { userId, projectId },
      {
        email: `r${i}@${domain}`,
        phone: "",
        company: "",
        customerKind: "" as const,
        contactType: "",
        custom: {},
        firstName: `Ann${i}`,
        lastName: "Baker",
        tags: [tag],
        customerSince: now,
      },
      "import",
      "subscribed",
      now,
      [],
    ),
    outbox: [],
  }));
  await contactsDb.collection("contacts").insertMany(docs as never[], { ordered: false });
  await forgetContactSnapshot({ userId, projectId });
}

async function campaign(session: GatewaySession, id: string): Promise<any> {
  for (;;) {
    const answer = await session.get(`/api/email/campaigns/${id}`);
    // A replica being killed or started may make one read fail; the next one answers.
    if (answer.status === 200) return answer.body.result;
    await sleep(300);
  }
}

async function waitForCampaign(session: GatewaySession, id: string, done: (c: any) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    last = await campaign(session, id);
    if (done(last)) return last;
    await sleep(250);
  }
  throw new Error(`campaign ${id} did not get there: ${JSON.stringify(last)}`);
}

interface MailpitSummary {
  MessageID: string;
  To: { Address: string }[];
  /** When Mailpit received it (ISO 8601, ms). */
  Created: string;
}

async function mailTo(domain: string): Promise<MailpitSummary[]> {
  const out: MailpitSummary[] = [];
  for (let start = 0; ; start += 500) {
    const response = await fetch(
      `${mailpit}/api/v1/search?query=${encodeURIComponent(`to:"${domain}"`)}&limit=500&start=${start}`,
    );
    const page = (await response.json()) as { messages: MailpitSummary[] };
    out.push(...page.messages);
    if (page.messages.length < 500) return out;
  }
}

/** The process that claimed the campaign's newest attempt (attempt facts name their worker, host:pid). */
async function sendingPid(campaignId: string): Promise<number> {
  const [latest] = await notificationsDb
    .collection("email_facts")
    .find({ campaignId, kind: "attempt" })
    .sort({ at: -1 })
    .limit(1)
    .toArray();
  return Number(
    String(latest?.detail ?? "")
      .split(":")
      .at(-1),
  );
}

/** The user's `emails` counter this month: the sum of its reservations and releases. */
async function emailsCounted(userId: string): Promise<number> {
  const entries = await billingDb.collection("usage_entries").find({ userId, counter: "emails" }).toArray();
  return entries.reduce((sum, entry) => sum + Number(entry.delta), 0);
}

describe("kill -9 of the sending notifications replica, in the middle of a campaign", () => {
  it(`${KILLS} times: every recipient gets one email or is counted as a possible duplicate`, async () => {
    const rows: Array<Record<string, number | string>> = [];
    for (let kill = 1; kill <= KILLS; kill++) {
      const run = randomUUID().slice(0, 8);
      const domain = `x${run}.replicas.test`;
      const tag = `replicas-${run}`;
      const { session, projectId, userId } = await owner();
      await seed(userId, projectId, tag, domain, RECIPIENTS);
      const segment = await session.post(`/api/segments?projectId=${projectId}`, {
        name: `Tag ${tag}`,
        query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: tag }] },
      });
      expect(segment.status).toBeLessThan(300);
      const created = await session.post(`/api/email/campaigns?projectId=${projectId}`, {
        name: `Kill ${kill}`,
        segmentId: segment.body.result.id,
        subject: 'Fresh bread, {{contact.firstName | "friend"}}',
        html: '<p>Our spring loaves are in. <a href="https://bakery.example/spring">See the loaves</a></p>',
      });
      expect(created.status).toBe(201);
      const id = created.body.result.id as string;
      expect((await session.post(`/api/email/campaigns/${id}/send`, {})).status).toBe(200);

      // A few emails out, then the replica holding the campaign dies mid-send.
      await waitForCampaign(session, id, (c) => c.stats.sent >= 20 || c.status === "sent", 180_000);
      const pid = await sendingPid(id);
      const replicas = [pidOf("notifications"), pidOf("notifications-2")];
      expect(replicas).toContain(pid);
      await killHard(pid);
      const atKill = (await mailTo(domain)).length;
      const restart = stack("up", "--replicas", "notifications=2");

      const done = await waitForCampaign(session, id, (c) => c.status === "sent", 300_000);
      await restart;
      const messages = await mailTo(domain);
      const recipients = new Map<string, { possibleDuplicate: boolean; status: string }>();
      for (let page = 1; recipients.size < RECIPIENTS; page++) {
        const answer = await session.get(`/api/email/campaigns/${id}/recipients?page=${page}&pageSize=100`);
        expect(answer.status).toBe(200);
        if (answer.body.result.result.length === 0) break;
        for (const r of answer.body.result.result) recipients.set(r.email, r);
      }
      const byAddress = new Map<string, Set<string>>();
      const received = new Map<string, number>();
      for (const m of messages) {
        const address = m.To[0]!.Address;
        byAddress.set(address, (byAddress.get(address) ?? new Set()).add(m.MessageID));
        received.set(address, (received.get(address) ?? 0) + 1);
      }

      // Everyone got it, always the same message (one Message-ID per recipient).
      expect(done.stats).toMatchObject({ recipients: RECIPIENTS, sent: RECIPIENTS, failed: 0 });
      expect(byAddress.size).toBe(RECIPIENTS);
      expect([...byAddress.values()].every((ids) => ids.size === 1)).toBe(true);
      // Whoever received it twice is counted as a possible duplicate, on the page and in the figures…
      const twice = [...received].filter(([, n]) => n > 1).map(([address]) => address);
      for (const address of twice) expect(recipients.get(address)?.possibleDuplicate).toBe(true);
      expect([...received.values()].every((n) => n <= 2)).toBe(true);
      const flagged = [...recipients.values()].filter((r) => r.possibleDuplicate).length;
      expect(done.stats.possibleDuplicates).toBe(flagged);
      // …so the emails that may have left cover every email received, and the plan counted each of them.
      expect(messages.length).toBeGreaterThanOrEqual(RECIPIENTS);
      expect(messages.length).toBeLessThanOrEqual(done.stats.sent + done.stats.possibleDuplicates);
      expect(await emailsCounted(userId)).toBe(done.stats.sent + done.stats.possibleDuplicates);
      rows.push({
        kill,
        "sent at the kill": atKill,
        "emails received": messages.length,
        duplicates: messages.length - RECIPIENTS,
        "counted as possible duplicates": done.stats.possibleDuplicates,
      });
    }
    // The figures of the report: duplicates per kill, and how many the campaign counted.
    const columns = Object.keys(rows[0] ?? {});
    process.stdout.write(
      `${[columns.join(" | "), ...rows.map((row) => columns.map((c) => String(row[c]).padStart(c.length)).join(" | "))].join("\n")}\n`,
    );
  });
});

describe("two replicas sending one account's campaign", () => {
  // Each replica paces with the same Redis buckets, so together they keep the account's rate; a
  // bucket in each process would let the pair send at twice it.
  const RATE = 10;
  const COUNT = 60;

  // The rest of the stack's tests expect its own settings back (the file's afterAll then stops the second replica).
  afterAll(() => restartBoth({}));

  it(`send at the account's ${RATE} emails a second between them, not ${RATE} each`, async () => {
    await restartBoth({ EMAIL_ACCOUNT_RATE_PER_SECOND: String(RATE) });
    const { session, projectId, userId } = await owner();
    const both = new Set([String(pidOf("notifications")), String(pidOf("notifications-2"))]);
    // Which replica takes each part of a campaign is BullMQ's pick, and a campaign one replica
    // sent alone says nothing of a shared rate: another goes (three at most) until both took part.
    let domain = "";
    let pids = new Set<string>();
    for (let attempt = 0; attempt < 3 && pids.size < 2; attempt++) {
      const run = randomUUID().slice(0, 8);
      domain = `x${run}.rate.test`;
      const tag = `rate-${run}`;
      await seed(userId, projectId, tag, domain, COUNT);
      const segment = await session.post(`/api/segments?projectId=${projectId}`, {
        name: `Tag ${tag}`,
        query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: tag }] },
      });
      const created = await session.post(`/api/email/campaigns?projectId=${projectId}`, {
        name: "Paced",
        segmentId: segment.body.result.id,
        subject: "Fresh bread",
        html: "<p>Our spring loaves are in.</p>",
      });
      const id = created.body.result.id as string;
      expect((await session.post(`/api/email/campaigns/${id}/send`, {})).status).toBe(200);
      const done = await waitForCampaign(session, id, (c) => c.status === "sent", 180_000);
      expect(done.stats).toMatchObject({ recipients: COUNT, sent: COUNT, failed: 0 });
      // The replicas that sent it (attempt facts name their worker, host:pid).
      const workers = await notificationsDb
        .collection("email_facts")
        .distinct("detail", { campaignId: id, kind: "attempt" });
      pids = new Set(workers.map((worker) => String(worker).split(":").at(-1) ?? ""));
    }
    expect(pids).toEqual(both);
    // …and what reached the SMTP server kept the account's rate: a one-message burst, then one every
    // 1/RATE s, so COUNT messages span at least (COUNT - 2) / RATE s (a bucket per replica: half
    // that). A 2-second window holds at most 2 × RATE, plus a quarter for hand-offs that reach SMTP
    // bunched after their turn (measured: 23 of 20); a bucket per replica would allow 4 × RATE.
    const times = (await mailTo(domain)).map((m) => Date.parse(m.Created)).sort((a, b) => a - b);
    expect(times).toHaveLength(COUNT);
    const spanS = (times.at(-1)! - times[0]!) / 1000;
    let busiest = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i]! - times[j]! >= 2000) j++;
      busiest = Math.max(busiest, i - j + 1);
    }
    process.stdout.write(
      `${COUNT} emails by 2 replicas at ${RATE}/s: ${spanS.toFixed(1)} s, busiest 2 s: ${busiest}\n`,
    );
    expect(spanS).toBeGreaterThanOrEqual((COUNT - 2) / RATE);
    expect(busiest).toBeLessThanOrEqual(2.5 * RATE);
  });
});
