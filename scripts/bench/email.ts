// Email campaign benchmark (issues 13 and 26; not a timed test): the time to send one campaign of N
// emails (default 20,000, Pro's month) to Mailpit with open and click tracking on, from "send" to the
// campaign's status `sent`, and until Mailpit holds every message (target: under 2 minutes), with
// one and with two replicas of the notifications service (the second started with
// `stack.mjs up --replicas notifications=2`, and stopped after unless it ran before). Needs the
// test stack and scripts/infra's servers. The N subscribed contacts are written straight into the
// contacts database in the service's own shape (common.ts `contactDocument`), and each run's user
// is put on Pro (20,000 emails a month) in billing's subscriptions collection, as a Stripe webhook
// would.
//   node scripts/bench/run.mjs email [--emails 20000] [--replicas 1,2]
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, verifiedSession } from "@crafter/kit/testing";
import { contactModel } from "../../services/contacts/src/store/contact.repository";
import { contactDocument, forgetContactSnapshot, serviceDatabase, stackEnv, userIdOf } from "./common";

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? (process.argv[at + 1] ?? fallback) : fallback;
};
const N = Number(arg("emails", "20000"));
const REPLICAS = arg("replicas", "1,2")
  .split(",")
  .map(Number)
  .filter((n) => n === 1 || n === 2);
const mailpit = stackEnv().MAILPIT_API_URL ?? "http://127.0.0.1:8025";
const stackDir = join(repoRoot, ".data/stack/test");

function secondRuns(): boolean {
  const file = join(stackDir, "notifications-2.pid");
  if (!existsSync(file)) return false;
  try {
    process.kill(Number(readFileSync(file, "utf8")), 0);
    return true;
  } catch {
    return false;
  }
}
const stack = (...args: string[]) =>
  execFileSync("node", ["scripts/stack.mjs", ...args, "--profile", "test"], { cwd: repoRoot, stdio: "ignore" });

interface Result {
  replicas: number;
  status: string;
  sent: number;
  possibleDuplicates: number;
  sentMs: number;
  mailpitMs: number;
  inMailpit: number;
}

async function campaignRun(replicas: number): Promise<Result> {
  const run = randomUUID().slice(0, 8);
  const domain = `b${run}.bench.test`;
  const { session } = await verifiedSession("bench-email");
  const project = await session.post("/api/projects/createProject", { name: "Bench", description: "Email benchmark." });
  const projectId = project.body.result.project.projectId as string;
  // Campaigns are not sent without the business's postal address (CAN-SPAM).
  await session.request("PATCH", `/api/profiles/${project.body.result.profile.profileId}`, {
    values: { address: "1 Bench Street" },
  });
  const userId = userIdOf(session);

  const billing = await serviceDatabase("billing");
  const now = new Date();
  await billing.collection("subscriptions").insertOne({
    _id: randomUUID() as never,
    userId,
    plan: "pro",
    planKey: "ProMonthly",
    status: "active",
    createdAt: now,
    updatedAt: now,
  });
  await billing.close();

  const tag = `bench-${run}`;
  const contactsDb = await serviceDatabase("contacts");
  const contacts = contactModel(contactsDb);
  for (let at = 0; at < N; at += 1000) {
    const docs = Array.from({ length: Math.min(1000, N - at) }, (_, i) =>
      contactDocument(
        { userId, projectId },
        { email: `person${at + i}@${domain}`, firstName: `First${at + i}`, lastName: "Bench", tags: [tag] },
        now,
      ),
    );
    await contacts.insertMany(docs, { ordered: false });
  }
  await contactsDb.close();
  await forgetContactSnapshot({ userId, projectId });

  const segment = await session.post(`/api/segments?projectId=${projectId}`, {
    name: "Bench",
    query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: tag }] },
  });
  const html = `<html><body><h1>Hello {{contact.firstName | "there"}}</h1>
  <p><a href="https://bakery.example/spring">Spring loaves</a> · <a href="https://bakery.example/menu">Menu</a></p></body></html>`;
  const created = await session.post(`/api/email/campaigns?projectId=${projectId}`, {
    name: "Bench campaign",
    segmentId: segment.body.result.id,
    subject: 'Fresh bread, {{contact.firstName | "friend"}}',
    html,
  });
  const id = created.body.result.id as string;

  async function mailpitCount(): Promise<number> {
    const response = await fetch(`${mailpit}/api/v1/search?query=${encodeURIComponent(`to:"${domain}"`)}&limit=1`);
    return ((await response.json()) as { messages_count?: number }).messages_count ?? 0;
  }

  const acceptedBefore = await mailpitAccepted();
  const start = performance.now();
  const sent = await session.post(`/api/email/campaigns/${id}/send`, {});
  if (sent.status !== 200) throw new Error(`send: ${sent.status} ${JSON.stringify(sent.body)}`);
  let campaign: { status: string; stats: { sent: number; failed: number; possibleDuplicates: number } } | undefined;
  for (;;) {
    const answer = await session.get(`/api/email/campaigns/${id}`);
    // A loaded machine may answer 503 now and then; the campaign goes on regardless.
    if (answer.status === 200) campaign = answer.body.result;
    if (campaign && (campaign.status === "sent" || campaign.status === "failed")) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const sentMs = performance.now() - start;
  let inMailpit = 0;
  for (let i = 0; i < 600 && inMailpit < N; i++) {
    inMailpit = Math.max(await mailpitCount(), (await mailpitAccepted()) - acceptedBefore);
    if (inMailpit < N) await new Promise((r) => setTimeout(r, 500));
  }
  return {
    replicas,
    status: campaign.status,
    sent: campaign.stats.sent,
    possibleDuplicates: campaign.stats.possibleDuplicates ?? 0,
    sentMs,
    mailpitMs: performance.now() - start,
    inMailpit,
  };
}

// Mailpit's own count of accepted messages: its search keeps only the newest --max messages, and
// other stacks may send at the same time (they inflate this count a little).
async function mailpitAccepted(): Promise<number> {
  const info = (await (await fetch(`${mailpit}/api/v1/info`)).json()) as { RuntimeStats?: { SMTPAccepted?: number } };
  return info.RuntimeStats?.SMTPAccepted ?? 0;
}

const hadSecond = secondRuns();
const results: Result[] = [];
for (const replicas of REPLICAS) {
  if (replicas === 2 && !secondRuns()) stack("up", "--replicas", "notifications=2");
  if (replicas === 1 && secondRuns()) stack("down", "notifications-2");
  results.push(await campaignRun(replicas));
}
if (hadSecond && !secondRuns()) stack("up", "--replicas", "notifications=2");
if (!hadSecond && secondRuns()) stack("down", "notifications-2");

const rate = (emails: number, ms: number) => ((emails / ms) * 1000).toFixed(1);
console.log(`campaign of ${N} emails (tracking on, SMTP to Mailpit), target < 120 s`);
console.log("  before (issue 26): 4,000 emails in 66 s, 60 emails/s at one replica; 20,000 would take 5.5 min");
for (const r of results)
  console.log(
    `  ${r.replicas} replica${r.replicas > 1 ? "s" : " "}  status ${r.status}: sent ${r.sent}, possible duplicates ${r.possibleDuplicates}` +
      `  send → sent ${(r.sentMs / 1000).toFixed(1)} s (${rate(r.sent, r.sentMs)} emails/s)` +
      `  send → all in Mailpit ${(r.mailpitMs / 1000).toFixed(1)} s (${r.inMailpit} messages)`,
  );
process.exit(results.every((r) => r.status === "sent" && r.inMailpit >= N) ? 0 : 1);
