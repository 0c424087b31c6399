// A business's own SendGrid (spec section 1, flag sendgrid_integration), through the gateway,
// the account and notifications services, against the local SendGrid at SENDGRID_API_URL (the
// services reach it as sendgrid.crafter.test): the key is checked (no mail.send: refused), sealed,
// the signed event webhook is set up; a campaign goes out with the business's key (not the
// platform's), its bounce comes back signed and is recorded; a forged signature is refused; a key
// revoked at SendGrid pauses sending visibly, and reconnecting sends what waited, once.
import { randomUUID } from "node:crypto";
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
