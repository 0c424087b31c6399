// Email campaign benchmark (issue 13; not a timed test): the time to send one campaign of N emails
// (default 4,000) to Mailpit with open and click tracking on, from "send" to the campaign's status
// `sent`, and until Mailpit holds every message (target: under 2 minutes). Needs the test stack and
// scripts/infra's servers. The N subscribed contacts are written straight into the contacts database
// in the service's own shape (common.ts `contactDocument`), and the user is put on Pro (20,000
// emails a month) in billing's subscriptions collection, as a Stripe webhook would.
//   node scripts/bench/run.mjs email [--emails 4000]
import { randomUUID } from "node:crypto";
import { verifiedSession } from "@crafter/kit/testing";
import { contactModel } from "../../services/contacts/src/store/contact.repository";
import { contactDocument, forgetContactSnapshot, serviceDatabase, stackEnv, userIdOf } from "./common";

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const N = arg("emails", 4000);
const mailpit = stackEnv().MAILPIT_API_URL ?? "http://127.0.0.1:8025";
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

// Mailpit's own count of accepted messages: its search keeps only the newest --max messages, and
// other stacks may send at the same time (they inflate this count a little).
async function mailpitAccepted(): Promise<number> {
  const info = (await (await fetch(`${mailpit}/api/v1/info`)).json()) as { RuntimeStats?: { SMTPAccepted?: number } };
  return info.RuntimeStats?.SMTPAccepted ?? 0;
}

const acceptedBefore = await mailpitAccepted();
const start = performance.now();
const sent = await session.post(`/api/email/campaigns/${id}/send`, {});
if (sent.status !== 200) throw new Error(`send: ${sent.status} ${JSON.stringify(sent.body)}`);
let campaign: { status: string; stats: { sent: number; failed: number } } | undefined;
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
const mailpitMs = performance.now() - start;
console.log(`campaign of ${N} emails (tracking on, SMTP to Mailpit)`);
console.log(`  status ${campaign.status}: sent ${campaign.stats.sent}, failed ${campaign.stats.failed}`);
console.log(
  `  send → status sent      ${(sentMs / 1000).toFixed(1)} s  (${((campaign.stats.sent / sentMs) * 1000).toFixed(1)} emails/s)`,
);
console.log(`  send → all in Mailpit   ${(mailpitMs / 1000).toFixed(1)} s  (${inMailpit} messages)   (target < 120 s)`);
process.exit(campaign.status === "sent" && inMailpit >= N ? 0 : 1);
