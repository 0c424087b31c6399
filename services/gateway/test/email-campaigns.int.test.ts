import { execFileSync } from "node:child_process";
import { createPrivateKey, createSign, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type GatewaySession, killHard, repoRoot, stackEnv, verifiedSession } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import mongoose, { type Connection } from "mongoose";
import type { ConsentStatus } from "../../contacts/src/domain/fields";
import { newContactDoc } from "../../contacts/src/usecases/contacts";
import { forgetContactSnapshot } from "../../contacts/test/seeded-contacts";

// Email campaigns on the real test stack: the notifications service sends through
// Mailpit; contacts, billing and the gateway are the real services.
// Generous: on the shared 2-core CI machine a 500-email campaign took 45–130 s.
jest.setTimeout(300_000);

const env = stackEnv();
const mailpit = env.MAILPIT_API_URL ?? "http://127.0.0.1:8025";
const namespace = env.CRAFTER_NAMESPACE ?? process.env.CRAFTER_NAMESPACE ?? "crafter_test";

// The private half of the test stack's SENDGRID_WEBHOOK_PUBLIC_KEY (scripts/stack.mjs, test profile).
const SENDGRID_TEST_KEY = createPrivateKey({
  key: Buffer.from(
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgwyRSIbbBDq0DHBWTu6moApguJ9J4xxzN2uYw+rarftOhRANCAATUzQTp0W2i7GS3cVg9tGbrh5Ny3eEA9y+gzFgPEjX0fpktPfCSNA1z980NmEC53HbbCeO+0F5EgOBrKPAriN8l",
    "base64",
  ),
  format: "der",
  type: "pkcs8",
});

let contactsDb: Connection;

beforeAll(async () => {
  contactsDb = await mongoose
    .createConnection(env.MONGODB_URL ?? "mongodb://127.0.0.1:27017/", { dbName: `${namespace}_contacts` })
    .asPromise();
});

afterAll(async () => {
  await contactsDb?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function userIdOf(session: GatewaySession): string {
  const token = session.cookies.get("crafter_at")!;
  return JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).sub as string;
}

async function userWithProject(prefix: string) {
  const { session, email } = await verifiedSession(prefix);
  const created = await session.post("/api/projects/createProject", {
    name: "Crumb & Co. Bakery",
    description: "A neighbourhood sourdough bakery baking naturally leavened bread every morning.",
  });
  expect(created.status).toBe(201);
  // Campaigns are not sent without the business's postal address (CAN-SPAM).
  const address = await session.request("PATCH", `/api/profiles/${created.body.result.profile.profileId}`, {
    values: { address: "12 Mill Lane, Bristol BS1 4DJ" },
  });
  expect(address.status).toBe(200);
  return { session, email, projectId: created.body.result.project.projectId as string, userId: userIdOf(session) };
}

/**
 * Contacts in the contacts service's document shape (its own `newContactDoc`), written straight to
 * its database: the free tier's 250-profile limit would stop an import at 250 (the benchmarks'
 * `contactDocument` does the same).
 */
async function seedContacts(
  userId: string,
  projectId: string,
  tag: string,
  domain: string,
  counts: Record<"subscribed" | "unsubscribed" | "pending", number>,
): Promise<{ id: string; email: string; consent: string }[]> {
  const now = new Date();
  const docs = Object.entries(counts).flatMap(([consent, count]) =>
    Array.from({ length: count }, (_, i) => {
      const fields = {
        email: `${consent}-${i}@${domain}`,
        phone: "",
        company: "",
        customerKind: "" as const,
        contactType: "",
        custom: {},
        firstName: i % 2 ? `Ann${i}` : "",
        lastName: "Baker",
        tags: [tag],
        customerSince: now,
      };
      return {
        ...newContactDoc({ userId, projectId }, fields, "import", consent as ConsentStatus, now, []),
        outbox: [],
      };
    }),
  );
  await contactsDb.collection("contacts").insertMany(docs as never[], { ordered: false });
  // Written past the service, so past its snapshot of the project: the next read rebuilds it, as
  // after a lost Redis write (store/contact-snapshot.ts).
  await forgetContactSnapshot({ userId, projectId });
  return docs.map((d) => ({ id: d._id, email: d.email, consent: d.consent }));
}

async function segmentOf(session: GatewaySession, projectId: string, tag: string): Promise<string> {
  const saved = await session.post(`/api/segments?projectId=${projectId}`, {
    name: `Tag ${tag}`,
    query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: tag }] },
  });
  expect(saved.status).toBeLessThan(300);
  return saved.body.result.id as string;
}

const HTML = `<!doctype html><html><body>
<h1>Fresh bread, {{contact.firstName | "friend"}}!</h1>
<p>Our spring loaves are in. <a href="https://bakery.example/spring?ref=mail">See the loaves</a></p>
<p>{{business.name}}</p>
</body></html>`;

async function waitForCampaign(session: GatewaySession, id: string, done: (c: any) => boolean, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < deadline) {
    last = (await session.get(`/api/email/campaigns/${id}`)).body.result;
    if (done(last)) return last;
    await sleep(300);
  }
  throw new Error(`campaign ${id} did not get there: ${JSON.stringify(last)}`);
}

interface MailpitSummary {
  ID: string;
  MessageID: string;
  To: { Address: string }[];
  Subject: string;
}

/** Every message Mailpit holds to addresses at `domain`. */
async function mailTo(domain: string): Promise<MailpitSummary[]> {
  const out: MailpitSummary[] = [];
  for (let start = 0; ; start += 500) {
    const response = await fetch(
      `${mailpit}/api/v1/search?query=${encodeURIComponent(`to:"${domain}"`)}&limit=500&start=${start}`,
    );
    const page = (await response.json()) as { messages: MailpitSummary[]; messages_count: number };
    out.push(...page.messages);
    if (page.messages.length < 500) return out;
  }
}

async function waitForMail(domain: string, count: number, timeoutMs = 60_000): Promise<MailpitSummary[]> {
  const deadline = Date.now() + timeoutMs;
  let messages: MailpitSummary[] = [];
  while (Date.now() < deadline) {
    messages = await mailTo(domain);
    if (messages.length >= count) return messages;
    await sleep(500);
  }
  return messages;
}

function signSendgrid(body: string): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signer = createSign("sha256");
  signer.update(timestamp + body);
  return {
    "x-twilio-email-event-webhook-signature": signer.sign(SENDGRID_TEST_KEY).toString("base64"),
    "x-twilio-email-event-webhook-timestamp": timestamp,
  };
}

describe("a campaign to a segment of 500 subscribed contacts", () => {
  const run = randomUUID().slice(0, 8);
  const domain = `c${run}.campaign.test`;
  const tag = `spring-${run}`;
  let owner: Awaited<ReturnType<typeof userWithProject>>;
  let contacts: { id: string; email: string; consent: string }[];
  let campaign: any;
  let messages: MailpitSummary[];

  beforeAll(async () => {
    owner = await userWithProject("campaign");
    contacts = await seedContacts(owner.userId, owner.projectId, tag, domain, {
      subscribed: 500,
      unsubscribed: 15,
      pending: 10,
    });
    const segmentId = await segmentOf(owner.session, owner.projectId, tag);
    const created = await owner.session.post(`/api/email/campaigns?projectId=${owner.projectId}`, {
      name: "Spring loaves",
      segmentId,
      subject: 'Fresh bread for you, {{contact.firstName | "friend"}}',
      preheader: "Our spring loaves are in",
      html: HTML,
    });
    expect(created.status).toBe(201);
    expect(created.body.result).toMatchObject({ status: "draft", name: "Spring loaves" });
    const sent = await owner.session.post(`/api/email/campaigns/${created.body.result.id}/send`, {});
    expect(sent.status).toBe(200);
    expect(sent.body.result.status).toBe("sending");
    campaign = await waitForCampaign(owner.session, created.body.result.id, (c) => c.status === "sent");
    messages = await waitForMail(domain, 500);
  });

  it("reaches every subscribed contact once and nobody else", async () => {
    expect(campaign.stats).toMatchObject({ recipients: 500, sent: 500, failed: 0 });
    const to = messages.map((m) => m.To[0]!.Address);
    expect(messages).toHaveLength(500);
    expect(new Set(to).size).toBe(500);
    expect(to.every((address) => address.startsWith("subscribed-"))).toBe(true);
    const page = await owner.session.get(`/api/email/campaigns/${campaign.id}/recipients?pageSize=100&page=5`);
    expect(page.body.result.meta).toEqual({ count: 500, currentPage: 5, totalPages: 5 });
    expect(page.body.result.result.every((r: { status: string }) => r.status === "sent")).toBe(true);
  });

  it("carries the one-click unsubscribe headers, the unsubscribe link, the footer and smart values", async () => {
    const one = messages.find((m) => m.To[0]!.Address === `subscribed-1@${domain}`)!;
    expect(one.Subject).toBe("Fresh bread for you, Ann1");
    expect(messages.find((m) => m.To[0]!.Address === `subscribed-0@${domain}`)!.Subject).toBe(
      "Fresh bread for you, friend",
    );
    const headers = (await (await fetch(`${mailpit}/api/v1/message/${one.ID}/headers`)).json()) as Record<
      string,
      string[]
    >;
    expect(headers["List-Unsubscribe-Post"]).toEqual(["List-Unsubscribe=One-Click"]);
    expect(headers["List-Unsubscribe"]![0]).toMatch(/^<http:\/\/localhost:\d+\/api\/public\/unsubscribe\/[\w.-]+>$/);
    const body = (await (await fetch(`${mailpit}/api/v1/message/${one.ID}`)).json()) as { HTML: string; Text: string };
    expect(body.HTML).toMatch(/href="http:\/\/localhost:\d+\/preferences\/[\w.-]+"[^>]*>Unsubscribe</);
    expect(body.HTML).toContain("Crumb &amp; Co. Bakery");
    expect(body.HTML).toContain("12 Mill Lane, Bristol BS1 4DJ");
    expect(body.Text).toMatch(/Unsubscribe: http:\/\/localhost:\d+\/preferences\//);
  });

  it("records opens and clicks, with UTM parameters on the target", async () => {
    const one = messages.find((m) => m.To[0]!.Address === `subscribed-0@${domain}`)!;
    const body = (await (await fetch(`${mailpit}/api/v1/message/${one.ID}`)).json()) as { HTML: string };
    const pixel = /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(body.HTML)![1]!.replace(/&amp;/g, "&");
    const click = /href="([^"]+\/t\/c\/[^"]+)"/.exec(body.HTML)![1]!.replace(/&amp;/g, "&");
    const gateway = owner.session.baseUrl;
    const opened = await fetch(`${gateway}${new URL(pixel).pathname}`);
    expect(opened.status).toBe(200);
    expect(opened.headers.get("content-type")).toBe("image/gif");
    const clicked = await fetch(`${gateway}${new URL(click).pathname}`, { redirect: "manual" });
    expect(clicked.status).toBe(302);
    const target = new URL(clicked.headers.get("location")!);
    expect(target.origin + target.pathname).toBe("https://bakery.example/spring");
    expect(Object.fromEntries(target.searchParams)).toEqual({
      ref: "mail",
      utm_source: "crafter",
      utm_medium: "email",
      utm_campaign: "Spring loaves",
    });
    // A forged click token is refused (no open redirect), and opens count once per delivery.
    const forged = await fetch(`${gateway}/t/c/${Buffer.from("x\nhttps://evil.example/").toString("base64url")}.AAAA`, {
      redirect: "manual",
    });
    expect(forged.status).toBe(404);
    await fetch(`${gateway}${new URL(pixel).pathname}`);
    const after = (await owner.session.get(`/api/email/campaigns/${campaign.id}`)).body.result;
    expect(after.stats).toMatchObject({ opened: 1, clicked: 1, openRate: 0.002, clickRate: 0.002 });
    const recipients = await owner.session.get(`/api/email/campaigns/${campaign.id}/recipients?pageSize=100`);
    const me = recipients.body.result.result.find((r: { email: string }) => r.email === `subscribed-0@${domain}`);
    expect(me.openedAt).not.toBeNull();
    expect(me.clickedAt).not.toBeNull();
  });

  it("takes a SendGrid-signed bounce and complaint, setting the contacts' consent", async () => {
    const deliveryOf = async (address: string) => {
      const one = messages.find((m) => m.To[0]!.Address === address)!;
      const html = ((await (await fetch(`${mailpit}/api/v1/message/${one.ID}`)).json()) as { HTML: string }).HTML;
      const token = /\/t\/c\/([\w.-]+)"/.exec(html)![1]!;
      return Buffer.from(token.split(".")[0]!, "base64url").toString().split("\n")[0]!;
    };
    const events = JSON.stringify([
      {
        email: `subscribed-5@${domain}`,
        event: "bounce",
        type: "bounce",
        delivery_id: await deliveryOf(`subscribed-5@${domain}`),
        sg_event_id: "e1",
        timestamp: 1,
      },
      {
        email: `subscribed-6@${domain}`,
        event: "spamreport",
        delivery_id: await deliveryOf(`subscribed-6@${domain}`),
        sg_event_id: "e2",
        timestamp: 1,
      },
      { email: "someone@else.test", event: "delivered", sg_event_id: "e3", timestamp: 1 },
    ]);
    const post = (body: string, headers: Record<string, string>) =>
      fetch(`${owner.session.baseUrl}/api/email/webhooks/sendgrid`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
    const forged = await post(events, { ...signSendgrid(events), "x-twilio-email-event-webhook-timestamp": "1" });
    expect(forged.status).toBe(403);
    const accepted = await post(events, signSendgrid(events));
    expect(accepted.status).toBe(200);
    expect(((await accepted.json()) as { result: { processed: number } }).result.processed).toBe(2);
    const replayed = await post(events, signSendgrid(events));
    expect(replayed.status).toBe(200);

    const consentOf = async (email: string) => {
      const id = contacts.find((c) => c.email === email)!.id;
      return (await owner.session.get(`/api/contacts/${id}?projectId=${owner.projectId}`)).body.result.consent;
    };
    expect(await consentOf(`subscribed-5@${domain}`)).toBe("bounced");
    expect(await consentOf(`subscribed-6@${domain}`)).toBe("complained");
    const after = (await owner.session.get(`/api/email/campaigns/${campaign.id}`)).body.result;
    expect(after.stats).toMatchObject({ bounced: 1, complained: 1, delivered: 499, bounceRate: 0.002 });
  });

  it("waits, visibly, at the monthly email limit and drops nobody", async () => {
    // The free tier sends 500 emails a month: the campaign above used them all.
    const tag2 = `more-${run}`;
    const domain2 = `m${run}.campaign.test`;
    const more = await seedContacts(owner.userId, owner.projectId, tag2, domain2, {
      subscribed: 3,
      unsubscribed: 0,
      pending: 0,
    });
    const segmentId = await segmentOf(owner.session, owner.projectId, tag2);
    const created = await owner.session.post(`/api/email/campaigns?projectId=${owner.projectId}`, {
      name: "One more",
      segmentId,
      subject: "One more",
      html: "<p>More bread</p>",
    });
    await owner.session.post(`/api/email/campaigns/${created.body.result.id}/send`, {});
    const waiting = await waitForCampaign(owner.session, created.body.result.id, (c) => c.waiting !== undefined);
    expect(waiting).toMatchObject({
      status: "sending",
      waiting: { reason: "limit", code: "FREE_USER_LIMIT" },
      stats: { recipients: 3, sent: 0, failed: 0, skipped: 0 },
    });
    const queued = await owner.session.get(`/api/email/campaigns/${created.body.result.id}/recipients?status=queued`);
    expect(queued.body.result.meta.count).toBe(3);
    expect(await mailTo(domain2)).toHaveLength(0);
    // Someone who unsubscribes while the campaign waits is skipped when it asks again.
    const leaving = await owner.session.request("PATCH", `/api/contacts/${more[0]!.id}?projectId=${owner.projectId}`, {
      consent: "unsubscribed",
    });
    expect(leaving.status).toBe(200);
    const skipped = await waitForCampaign(owner.session, created.body.result.id, (c) => c.stats.skipped === 1);
    expect(skipped).toMatchObject({ status: "sending", waiting: { code: "FREE_USER_LIMIT" }, stats: { sent: 0 } });
  });

  it("refuses what the contract refuses, without a 500", async () => {
    const s = owner.session;
    expect((await s.put(`/api/email/campaigns/${campaign.id}`, { name: "Renamed" })).status).toBe(409);
    expect((await s.request("DELETE", `/api/email/campaigns/${campaign.id}`, {})).status).toBe(409);
    expect((await s.get(`/api/email/campaigns/${randomUUID()}`)).status).toBe(404);
    const draft = await s.post(`/api/email/campaigns?projectId=${owner.projectId}`, { name: "Empty" });
    const notReady = await s.post(`/api/email/campaigns/${draft.body.result.id}/send`, {});
    expect(notReady.status).toBe(400);
    expect(notReady.body.error.fields).toMatchObject({ segmentId: "Choose a segment", subject: "Subject is required" });
    const past = await s.post(`/api/email/campaigns/${draft.body.result.id}/schedule`, { at: "2001-01-01T00:00:00Z" });
    expect(past.status).toBe(400);
    const badShare = await s.put(`/api/email/campaigns/${draft.body.result.id}`, {
      abTest: { subjectB: "B", share: 70, winnerAfterMinutes: 5 },
    });
    expect(badShare.status).toBe(400);
    // A campaign made from a template (the composer sends only its id) takes the template's HTML and subject.
    const fromTemplate = await s.post(`/api/email/campaigns?projectId=${owner.projectId}`, {
      name: "From the newsletter",
      templateId: "predefined-newsletter",
    });
    expect(fromTemplate.status).toBeLessThan(300);
    expect(fromTemplate.body.result.subject).toBe("This month at {{business.name}}");
    expect(fromTemplate.body.result.html).toContain("</html>");
    const switched = await s.put(`/api/email/campaigns/${draft.body.result.id}`, {
      templateId: "predefined-promotion",
    });
    expect(switched.body.result.subject).toBe('25% off everything, {{contact.firstName | "friend"}}');
    expect(switched.body.result.html.length).toBeGreaterThan(500);
    const unknown = await s.post(`/api/email/campaigns?projectId=${owner.projectId}`, {
      templateId: "no-such-template",
    });
    expect(unknown.status).toBe(404);
    // Another user sees nothing of it.
    const stranger = await userWithProject("stranger");
    expect((await stranger.session.get(`/api/email/campaigns/${campaign.id}`)).status).toBe(404);
  });
});

describe("a crash in the middle of a campaign", () => {
  it("resumes after a restart without sending anyone a second, different message", async () => {
    const run = randomUUID().slice(0, 8);
    const domain = `k${run}.campaign.test`;
    const tag = `crash-${run}`;
    const owner = await userWithProject("crash");
    await seedContacts(owner.userId, owner.projectId, tag, domain, { subscribed: 300, unsubscribed: 0, pending: 0 });
    const segmentId = await segmentOf(owner.session, owner.projectId, tag);
    const created = await owner.session.post(`/api/email/campaigns?projectId=${owner.projectId}`, {
      name: "Crash test",
      segmentId,
      subject: "Hello",
      html: "<p>Hello</p>",
    });
    const id = created.body.result.id as string;
    await owner.session.post(`/api/email/campaigns/${id}/send`, {});
    // Kill the notifications service (SIGKILL: no drain) while the campaign is sending.
    await waitForCampaign(owner.session, id, (c) => c.stats.sent >= 80, 120_000);
    const stackDir = join(repoRoot, ".data/stack/test");
    const pid = Number(readFileSync(join(stackDir, "notifications.pid"), "utf8"));
    await killHard(pid);
    const atCrash = (await mailTo(domain)).length;
    expect(atCrash).toBeLessThan(300);
    execFileSync("node", ["scripts/stack.mjs", "up", "--profile", "test"], { cwd: repoRoot, stdio: "ignore" });

    const done = await waitForCampaign(owner.session, id, (c) => c.status === "sent");
    expect(done.stats).toMatchObject({ recipients: 300, sent: 300, failed: 0 });
    const messages = await waitForMail(domain, 300);
    const byAddress = new Map<string, Set<string>>();
    for (const m of messages) {
      const address = m.To[0]!.Address;
      byAddress.set(address, (byAddress.get(address) ?? new Set()).add(m.MessageID));
    }
    // Everyone got it; a message the provider accepted just before the crash, and that was not yet
    // recorded, is sent again after the restart with the same Message-ID (at least once, never a
    // second different message). That window holds at most the messages in flight (EMAIL_CONCURRENCY).
    expect(byAddress.size).toBe(300);
    expect([...byAddress.values()].every((ids) => ids.size === 1)).toBe(true);
    expect(messages.length - 300).toBeLessThanOrEqual(8);
  });
});
