// A business's own SendGrid (spec section 1, flag sendgrid_integration), through the gateway,
// the account and notifications services, against the local SendGrid at SENDGRID_API_URL (the
// services reach it as sendgrid.crafter.test): the key is checked (no mail.send: refused), sealed,
// the signed event webhook is set up; a campaign goes out with the business's key (not the
// platform's), its bounce comes back signed and is recorded; a forged signature is refused; a key
// revoked at SendGrid pauses sending visibly, and reconnecting sends what waited, once.
import { createSign, generateKeyPairSync, randomUUID } from "node:crypto";
import { GatewaySession, gatewayUrl, linkFrom, stackEnv, verifiedSession, waitForEmail } from "@crafter/kit/testing";
import { LocalSendgridServer } from "@crafter/provider-fakes";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";

jest.setTimeout(60_000);

const env = stackEnv();
const sendgrid = new LocalSendgridServer({ keys: { "SG.test-key": { account: "platform" } } });
const account = `bakery-${randomUUID().slice(0, 6)}`;
const KEY = `SG.bakery-${randomUUID()}`;

let owner: GatewaySession;
let ownerId: string;
let projectId: string;

async function signUpAdmin(): Promise<GatewaySession> {
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  const session = new GatewaySession();
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  return session;
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function sendgridIntegration() {
  const list = await owner.get(`/api/integrations?projectId=${projectId}`);
  expect(list.status).toBe(200);
  return (list.body.result as { provider: string; configured: boolean; connection?: Record<string, any> }[]).find(
    (item) => item.provider === "sendgrid",
  );
}

beforeAll(async () => {
  await sendgrid.start(Number(new URL(env.SENDGRID_API_URL ?? "http://x:28025").port));
  sendgrid.addKey(KEY, { account });
  sendgrid.addKey(`${KEY}-no-send`, { account, scopes: ["user.webhooks.event.settings.read"] });
  sendgrid.addSender(account, { from_email: "hello@crumb.example", from_name: "Crumb & Co." });
  sendgrid.addSender(account, { from_email: "pending@crumb.example", verified: false });
  let admin: GatewaySession;
  [{ session: owner }, admin] = await Promise.all([verifiedSession("sg-owner"), signUpAdmin()]);
  ownerId = (await owner.get("/auth/check")).body.result.user.userId;
  expect(
    (await admin.put(`/api/admin/users/${ownerId}/flags`, { flag: "sendgrid_integration", enabled: true })).status,
  ).toBe(200);
  const project = await owner.post("/api/projects/createProject", {
    name: "Crumb & Co. Bakery",
    description: "A neighbourhood sourdough bakery baking naturally leavened bread every morning.",
  });
  expect(project.status).toBe(201);
  projectId = project.body.result.project.projectId;
  // Campaigns are not sent without the business's postal address (CAN-SPAM).
  const address = await owner.request("PATCH", `/api/profiles/${project.body.result.profile.profileId}`, {
    values: { address: "1 Mill Lane, Bristol" },
  });
  expect(address.status).toBe(200);
});

afterAll(() => sendgrid.stop());

describe("connecting the business's SendGrid key", () => {
  it("refuses a key SendGrid does not know, and a key without mail.send, saying why", async () => {
    expect(await sendgridIntegration()).toMatchObject({ kind: "api_key", configured: true });
    const unknown = await owner.post(`/api/integrations/sendgrid/key?projectId=${projectId}`, { apiKey: "SG.nope" });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain("SendGrid refused this key");
    const noSend = await owner.post(`/api/integrations/sendgrid/key?projectId=${projectId}`, {
      apiKey: `${KEY}-no-send`,
    });
    expect(noSend.status).toBe(400);
    expect(JSON.stringify(noSend.body)).toContain("cannot send mail");
    expect((await sendgridIntegration())?.connection).toBeUndefined();
  });

  it("connects a key with mail.send: sealed, the senders listed, the signed event webhook set up", async () => {
    const connected = await owner.post(`/api/integrations/sendgrid/key?projectId=${projectId}`, { apiKey: ` ${KEY} ` });
    expect(connected.status).toBe(200);
    const url = `${env.PUBLIC_ORIGIN ?? gatewayUrl()}/api/email/webhooks/sendgrid/${projectId}`;
    expect(connected.body.result.connection).toMatchObject({
      state: "connected",
      remoteAccountName: "hello@crumb.example",
      scopes: expect.arrayContaining(["mail.send"]),
      webhook: { state: "active", url, error: "" },
    });
    expect(JSON.stringify(connected.body)).not.toContain(KEY);
    expect(JSON.stringify(await sendgridIntegration())).not.toContain(KEY);
    expect(sendgrid.webhooksOf(account)).toEqual([
      expect.objectContaining({
        url,
        enabled: true,
        signed: true,
        events: expect.objectContaining({ bounce: true, spam_report: true, open: true, click: true, delivered: true }),
      }),
    ]);
    const senders = await owner.get(`/api/integrations/sendgrid/senders?projectId=${projectId}`);
    expect(senders.status).toBe(200);
    expect(senders.body.result).toEqual({
      senders: [
        expect.objectContaining({ email: "hello@crumb.example", name: "Crumb & Co.", verified: true }),
        expect.objectContaining({ email: "pending@crumb.example", verified: false }),
      ],
      next: "",
    });
  });
});

/** Subscribed contacts tagged `tag` in the project, a segment of them, and a campaign to it (a draft). */
async function campaignTo(tag: string, count: number, subject: string) {
  const emails = Array.from({ length: count }, (_, i) => `${tag}-${i}@crumb-customers.test`);
  const contactIds: string[] = [];
  for (const email of emails) {
    const contact = await owner.post(`/api/contacts?projectId=${projectId}`, { email, firstName: "Ada", tags: [tag] });
    expect(contact.status).toBe(201);
    contactIds.push(contact.body.result.id);
    const consent = await owner.request("PATCH", `/api/contacts/${contact.body.result.id}?projectId=${projectId}`, {
      consent: "subscribed",
    });
    expect(consent.status).toBe(200);
  }
  const segment = await owner.post(`/api/segments?projectId=${projectId}`, {
    name: tag,
    query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: tag }] },
  });
  expect(segment.status).toBeLessThan(300);
  const campaign = await owner.post(`/api/email/campaigns?projectId=${projectId}`, {
    name: subject,
    segmentId: segment.body.result.id,
    subject,
    html: "<p>Fresh loaves every morning.</p>",
  });
  expect(campaign.status).toBe(201);
  return { id: campaign.body.result.id as string, emails, contactIds };
}

const campaignOf = async (id: string) => (await owner.get(`/api/email/campaigns/${id}`)).body.result;
const mailOf = (subject: string) => sendgrid.seen.mail.filter((m) => m.body.subject === subject);
const webhookPath = () => `/api/email/webhooks/sendgrid/${projectId}`;

describe("sending through the business's own key", () => {
  let bounceMessage = "";

  it("sends a campaign with the business's key, not the platform's, and records its bounce from the signed webhook", async () => {
    const { id, emails } = await campaignTo(`own-${randomUUID().slice(0, 6)}`, 2, "Loaves through our own SendGrid");
    expect((await owner.post(`/api/email/campaigns/${id}/send`, {})).status).toBe(200);
    const sent = await eventually(
      async () => mailOf("Loaves through our own SendGrid"),
      (m) => m.length === 2,
    );
    expect(sent.map((m) => m.key)).toEqual([KEY, KEY]);
    expect(sent.map((m) => m.body.personalizations[0]!.to[0]!.email).sort()).toEqual(emails);
    const done = await eventually(
      () => campaignOf(id),
      (c) => c.status === "sent",
    );
    expect(done.stats).toMatchObject({ sent: 2, failed: 0 });

    bounceMessage = sent.find((m) => m.body.personalizations[0]!.to[0]!.email === emails[0])!.messageId;
    const [post] = await sendgrid.sendEvents(bounceMessage, ["delivered", "bounce"]);
    expect(post).toMatchObject({ status: 200, signed: true });
    const after = await eventually(
      () => campaignOf(id),
      (c) => c.stats.bounced === 1,
    );
    expect(after.stats).toMatchObject({ bounced: 1, delivered: 1 });
    const recipients = await owner.get(`/api/email/campaigns/${id}/recipients?status=bounced`);
    expect(recipients.body.result.result.map((r: { email: string }) => r.email)).toEqual([emails[0]]);
  });

  it("refuses events with a forged signature, an old timestamp, or for a business without a connection", async () => {
    const events = JSON.stringify([{ event: "spamreport", email: "x@y.test", delivery_id: "d", timestamp: 1 }]);
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signer = createSign("sha256");
    signer.update(timestamp + events);
    const forged = await fetch(`${owner.baseUrl}${webhookPath()}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-twilio-email-event-webhook-signature": signer.sign(privateKey).toString("base64"),
        "x-twilio-email-event-webhook-timestamp": timestamp,
      },
      body: events,
    });
    expect(forged.status).toBe(403);
    const [old] = await sendgrid.sendEvents(
      bounceMessage,
      ["open"],
      {},
      { timestamp: Math.floor(Date.now() / 1000) - 3600 },
    );
    expect(old!.status).toBe(403);
    const elsewhere = await fetch(`${owner.baseUrl}/api/email/webhooks/sendgrid/${randomUUID()}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: events,
    });
    expect(elsewhere.status).toBe(403);
  });

  it("pauses sending visibly when SendGrid revokes the key, and sends what waited, once, after reconnecting", async () => {
    sendgrid.revoke(KEY);
    const subject = "Loaves while the key was revoked";
    const tag = `rev-${randomUUID().slice(0, 6)}`;
    const { id, emails, contactIds } = await campaignTo(tag, 3, subject);
    expect((await owner.post(`/api/email/campaigns/${id}/send`, {})).status).toBe(200);
    const waiting = await eventually(
      () => campaignOf(id),
      (c) => c.waiting?.reason === "provider",
    );
    expect(waiting).toMatchObject({
      status: "sending",
      waiting: { reason: "provider", code: "SENDGRID_NEEDS_RECONNECTING" },
      stats: { sent: 0, failed: 0 },
    });
    expect((await sendgridIntegration())?.connection).toMatchObject({
      state: "needs_reconnecting",
      lastError: expect.stringContaining("401"),
    });
    expect(mailOf(subject)).toHaveLength(0);
    // An automation's email waits too.
    const automation = await owner.post(`/api/automations?projectId=${projectId}`, {
      name: "Welcome back",
      trigger: { kind: "tag_added", tag: "returning" },
      steps: [{ id: "hi", kind: "send_email", subject: "Welcome back, while paused", html: "<p>Hello again</p>" }],
    });
    expect(automation.status).toBe(201);
    const automationId = automation.body.result.id;
    expect((await owner.post(`/api/automations/${automationId}/activate?projectId=${projectId}`)).status).toBe(200);
    await owner.request("PATCH", `/api/contacts/${contactIds[0]}?projectId=${projectId}`, { tags: [tag, "returning"] });
    const runs = await eventually(
      async () => (await owner.get(`/api/automations/${automationId}/runs?projectId=${projectId}`)).body.result.result,
      (list: { status: string }[]) => list[0]?.status === "completed",
    );
    expect(runs).toHaveLength(1);
    // Nothing fails while it waits.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await campaignOf(id)).stats).toMatchObject({ sent: 0, failed: 0 });
    expect(sendgrid.seen.mail.some((m) => m.key === "SG.test-key" && m.body.subject === subject)).toBe(false);
    expect(mailOf("Welcome back, while paused")).toHaveLength(0);

    const fresh = `SG.bakery-${randomUUID()}`;
    sendgrid.addKey(fresh, { account });
    const reconnected = await owner.post(`/api/integrations/sendgrid/key?projectId=${projectId}`, { apiKey: fresh });
    expect(reconnected.status).toBe(200);
    expect(reconnected.body.result.connection).toMatchObject({ state: "connected", webhook: { state: "active" } });
    // The reconnect reuses the business's webhook rather than adding another.
    expect(sendgrid.webhooksOf(account)).toHaveLength(1);
    const done = await eventually(
      () => campaignOf(id),
      (c) => c.status === "sent",
    );
    expect(done.waiting ?? null).toBeNull();
    expect(done.stats).toMatchObject({ recipients: 3, sent: 3, failed: 0 });
    const sent = mailOf(subject);
    expect(sent.map((m) => m.key)).toEqual([fresh, fresh, fresh]);
    expect(sent.map((m) => m.body.personalizations[0]!.to[0]!.email).sort()).toEqual(emails);
    const welcome = await eventually(
      async () => mailOf("Welcome back, while paused"),
      (m) => m.length === 1,
    );
    expect(welcome.map((m) => [m.key, m.body.personalizations[0]!.to[0]!.email])).toEqual([[fresh, emails[0]]]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mailOf("Welcome back, while paused")).toHaveLength(1);
  });

  it("disconnects: the key is deleted and the webhook removed from the business's SendGrid account", async () => {
    const gone = await owner.request("DELETE", `/api/integrations/sendgrid?projectId=${projectId}`);
    expect(gone.status).toBe(200);
    expect((await sendgridIntegration())?.connection).toBeUndefined();
    expect(sendgrid.webhooksOf(account)).toEqual([]);
  });
});
