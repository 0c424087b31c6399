#!/usr/bin/env node
// Email campaign benchmark (issue 13; not a timed test): the time to send one campaign of N emails
// (default 4,000) to Mailpit with open and click tracking on, from "send" to the campaign's status
// `sent`, and until Mailpit holds every message. Needs a running stack (STACK_PORT_OFFSET and
// CRAFTER_NAMESPACE as when it was started) and scripts/infra's servers. The N subscribed contacts
// are written straight into the contacts database in the service's document shape, and the user is
// put on Pro (20,000 emails a month) in billing's subscriptions collection, as a Stripe webhook would.
//   node scripts/bench/email.mjs [--emails 4000]
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { MongoClient } from "mongodb";

const arg = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const env = Object.fromEntries(
  [".data/infra.env", ".data/stack/test/stack.env"].flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => /^[A-Z_]+=/.test(l.replace(/^export\s+/, "")))
      .map((l) => {
        const line = l.replace(/^export\s+/, "");
        const at = line.indexOf("=");
        return [line.slice(0, at), line.slice(at + 1).replace(/^"|"$/g, "")];
      }),
  ),
);
const gateway = env.GATEWAY_URL;
const namespace = process.env.CRAFTER_NAMESPACE ?? env.CRAFTER_NAMESPACE ?? "crafter";
const cookies = new Map();

async function call(method, path, body, type = "application/json") {
  const response = await fetch(`${gateway}${path}`, {
    method,
    headers: {
      ...(method === "GET" ? {} : { "content-type": type, origin: gateway }),
      cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const at = pair.indexOf("=");
    cookies.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return { status: response.status, body: await response.json().catch(() => null) };
}

async function verificationToken(email) {
  for (let i = 0; i < 100; i++) {
    const found = await (
      await fetch(`${env.MAILPIT_API_URL}/api/v1/search?query=${encodeURIComponent(`to:"${email}"`)}`)
    ).json();
    if (found.messages?.length) {
      const message = await (await fetch(`${env.MAILPIT_API_URL}/api/v1/message/${found.messages[0].ID}`)).json();
      return new URL(/https?:\/\/\S+\/verify\S*/.exec(message.Text)[0]).searchParams.get("token");
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("no verification email");
}

const N = arg("emails", 4000);
const run = randomUUID().slice(0, 8);
const domain = `b${run}.bench.test`;
const email = `bench-email-${run}@example.com`;
await call("POST", "/auth/signup", { email, password: "password-123" });
await call("POST", "/auth/verify", { token: await verificationToken(email) });
await call("POST", "/auth/signin", { email, password: "password-123" });
const project = await call("POST", "/api/projects/createProject", { name: "Bench", description: "Email benchmark." });
const projectId = project.body.result.project.projectId;
// Campaigns are not sent without the business's postal address (CAN-SPAM).
await call("PATCH", `/api/profiles/${project.body.result.profile.profileId}`, {
  values: { address: "1 Bench Street" },
});
const userId = JSON.parse(Buffer.from(cookies.get("crafter_at").split(".")[1], "base64url").toString()).sub;

const client = await MongoClient.connect(env.MONGODB_URL);
const db = (name) => client.db(`${namespace}_${name}`.replace(/-/g, "_"));
const now = new Date();
await db("billing").collection("subscriptions").insertOne({
  _id: randomUUID(),
  userId,
  plan: "pro",
  planKey: "ProMonthly",
  status: "active",
  createdAt: now,
  updatedAt: now,
});
const tag = `bench-${run}`;
const docs = Array.from({ length: N }, (_, i) => ({
  _id: randomUUID(),
  userId,
  projectId,
  email: `person${i}@${domain}`,
  firstName: `First${i}`,
  lastName: "Bench",
  phone: "",
  company: "",
  customerKind: "",
  contactType: "",
  tags: [tag],
  custom: {},
  customerSince: now,
  updatedOn: now,
  source: "import",
  consent: "subscribed",
  consentAt: now,
  interactionCounts: {},
  interactionCount: 0,
  searchTokens: [`person${i}@${domain}`],
  facets: [`tags:${tag}`, "consent:subscribed", "source:import"],
  outbox: [],
  createdAt: now,
}));
for (let at = 0; at < N; at += 1000)
  await db("contacts")
    .collection("contacts")
    .insertMany(docs.slice(at, at + 1000));
await client.close();

const segment = await call("POST", `/api/segments?projectId=${projectId}`, {
  name: "Bench",
  query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: tag }] },
});
const html = `<html><body><h1>Hello {{contact.firstName | "there"}}</h1>
<p><a href="https://bakery.example/spring">Spring loaves</a> · <a href="https://bakery.example/menu">Menu</a></p></body></html>`;
const created = await call("POST", `/api/email/campaigns?projectId=${projectId}`, {
  name: "Bench campaign",
  segmentId: segment.body.result.id,
  subject: 'Fresh bread, {{contact.firstName | "friend"}}',
  html,
});
const id = created.body.result.id;

async function mailpitCount() {
  const response = await fetch(
    `${env.MAILPIT_API_URL}/api/v1/search?query=${encodeURIComponent(`to:"${domain}"`)}&limit=1`,
  );
  return (await response.json()).messages_count ?? 0;
}

// Mailpit's own count of accepted messages: its search keeps only the newest --max messages
// (500 by default), and other stacks may send at the same time (they inflate this count a little).
async function mailpitAccepted() {
  return (await (await fetch(`${env.MAILPIT_API_URL}/api/v1/info`)).json()).RuntimeStats?.SMTPAccepted ?? 0;
}
const acceptedBefore = await mailpitAccepted();
const start = performance.now();
const sent = await call("POST", `/api/email/campaigns/${id}/send`, {});
if (sent.status !== 200) throw new Error(`send: ${sent.status} ${JSON.stringify(sent.body)}`);
let campaign;
for (;;) {
  const answer = await call("GET", `/api/email/campaigns/${id}`);
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
console.log(`  send → all in Mailpit   ${(mailpitMs / 1000).toFixed(1)} s  (${inMailpit} messages)`);
