// Email campaign benchmark (not a timed test): the time to send one campaign of N
// emails (default 20,000, Pro's month) to Mailpit with open and click tracking on, from "send" to the
// campaign's status `sent`, and until Mailpit holds every message (target: under 2 minutes), with
// one and with two replicas of the notifications service (the second started with
// `stack.mjs up --replicas notifications=2`, and stopped after unless it ran before). Needs the
// test stack and scripts/infra's servers. The N subscribed contacts are written straight into the
// contacts database in the service's own shape (common.ts `contactDocument`), and each run's user
// is put on Pro (20,000 emails a month) in billing's subscriptions collection, as a Stripe webhook
// would. Beside it: Mailpit alone (the same kind of message straight over pooled SMTP, no service),
// the ceiling a campaign to Mailpit cannot pass, and where each round's time went (the service's
// "campaign round" log lines: composing, the Redis-wide pace, the attempt and sent inserts, SMTP).
//   node scripts/bench/run.mjs email [--emails 20000] [--replicas 1|2 (default: both)] [--alone 5000]
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot, verifiedSession } from "@crafter/kit/testing";
import { contactModel } from "../../services/contacts/src/store/contact.repository";
import { createSmtpMailer } from "../../services/notifications/src/mail/mailer";
import {
  contactDocument,
  forgetContactSnapshot,
  machine,
  numberArg,
  onProPlan,
  serviceDatabase,
  settle,
  stackEnv,
  userIdOf,
} from "./common";

const N = numberArg("emails", 20_000);
const only = numberArg("replicas", 0);
const REPLICAS = only === 1 || only === 2 ? [only] : [1, 2];
const ALONE = numberArg("alone", 5000);
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
  /** The campaign's "campaign round" log lines, summed: ms per stage and rounds. */
  rounds: string;
}

async function campaignRun(replicas: number): Promise<Result> {
  const run = randomUUID().slice(0, 8);
  const domain = `b${run}.bench.test`;
  const { session } = await verifiedSession("bench-email");
  // A loaded machine answers 503 now and then: setup calls are tried again, up to 5 times.
  const post = async (path: string, body: object, method = "POST") => {
    for (let i = 1; ; i++) {
      const answer = await session.request(method, path, body);
      if (answer.status < 500 || i >= 5) return answer;
      await new Promise((r) => setTimeout(r, 1000 * i));
    }
  };
  const project = await post("/api/projects/createProject", { name: "Bench", description: "Email benchmark." });
  const projectId = project.body.result.project.projectId as string;
  // Campaigns are not sent without the business's postal address (CAN-SPAM).
  await post(
    `/api/profiles/${project.body.result.profile.profileId}`,
    { values: { address: "1 Bench Street" } },
    "PATCH",
  );
  const userId = userIdOf(session);

  await onProPlan(userId);

  const now = new Date();
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

  const segment = await post(`/api/segments?projectId=${projectId}`, {
    name: "Bench",
    query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: tag }] },
  });
  const html = `<html><body><h1>Hello {{contact.firstName | "there"}}</h1>
  <p><a href="https://bakery.example/spring">Spring loaves</a> · <a href="https://bakery.example/menu">Menu</a></p></body></html>`;
  const created = await post(`/api/email/campaigns?projectId=${projectId}`, {
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
    rounds: roundsOf(id),
  };
}

/** Where the campaign's rounds spent their time, from every notifications replica's log. */
function roundsOf(campaignId: string): string {
  const stages = ["compose", "pace", "slot", "claim", "provider", "record"] as const;
  const sum: Record<string, number> = { rounds: 0, sent: 0, ms: 0 };
  for (const file of readdirSync(stackDir).filter((f) => /^notifications(-\d+)?\.log$/.test(f)))
    for (const line of readFileSync(join(stackDir, file), "utf8").split("\n")) {
      if (!line.includes(campaignId) || !line.includes('"campaign round"')) continue;
      const round = JSON.parse(line) as Record<string, number>;
      sum.rounds! += 1;
      for (const key of ["sent", "ms", ...stages]) sum[key] = (sum[key] ?? 0) + (round[key] ?? 0);
    }
  if (!sum.rounds) return "no round logged";
  const per = (key: string) => (sum.sent ? ((sum[key] ?? 0) / sum.sent).toFixed(2) : "-");
  return (
    `${sum.rounds} rounds, ${sum.sent} sent; ms per email (lanes overlap): ` +
    stages.map((stage) => `${stage} ${per(stage)}`).join(", ")
  );
}

/** Mailpit alone: `count` messages like a campaign's, straight over pooled SMTP (8 connections, as the service). */
async function mailpitAlone(count: number): Promise<{ ms: number; count: number }> {
  const env = stackEnv();
  const mailer = createSmtpMailer({
    url: env.SMTP_URL ?? "smtp://127.0.0.1:1025",
    from: "Bench <bench@crafter.local>",
    timeoutMs: 15_000,
    pool: 8,
  });
  const run = randomUUID().slice(0, 8);
  const html = `<html><body><h1>Hello First</h1>${'<p><a href="http://localhost:8080/t/c/abcdefghijklmnopqrstuvwxyz0123456789">Spring loaves</a></p>'.repeat(3)}</body></html>`;
  const start = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < count) {
        const i = next++;
        await mailer.send({
          to: `alone${i}@a${run}.bench.test`,
          subject: "Fresh bread, First",
          html,
          text: "Hello First\nSpring loaves",
          messageId: `<alone-${run}-${i}@crafter.local>`,
        });
      }
    }),
  );
  const ms = performance.now() - start;
  mailer.close();
  return { ms, count };
}

// Mailpit's own count of accepted messages: its search keeps only the newest --max messages, and
// other stacks may send at the same time (they inflate this count a little).
async function mailpitAccepted(): Promise<number> {
  const info = (await (await fetch(`${mailpit}/api/v1/info`)).json()) as { RuntimeStats?: { SMTPAccepted?: number } };
  return info.RuntimeStats?.SMTPAccepted ?? 0;
}

console.log(`machine: ${machine()}; ${await settle()}`);
const alone = ALONE > 0 ? await mailpitAlone(ALONE) : null;
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
if (alone)
  console.log(
    `  Mailpit alone (pooled SMTP, 8 connections, no service): ${alone.count} in ${(alone.ms / 1000).toFixed(1)} s, ${rate(alone.count, alone.ms)} emails/s`,
  );
for (const r of results)
  console.log(
    `  ${r.replicas} replica${r.replicas > 1 ? "s" : " "}  status ${r.status}: sent ${r.sent}, possible duplicates ${r.possibleDuplicates}` +
      `  send → sent ${(r.sentMs / 1000).toFixed(1)} s (${rate(r.sent, r.sentMs)} emails/s)` +
      `  send → all in Mailpit ${(r.mailpitMs / 1000).toFixed(1)} s (${r.inMailpit} messages)\n      ${r.rounds}`,
  );
console.log(`machine after: ${machine()}`);
process.exit(results.every((r) => r.status === "sent" && r.inMailpit >= N) ? 0 : 1);
