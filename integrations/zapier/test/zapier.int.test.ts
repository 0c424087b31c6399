import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { GatewaySession, gatewayUrl, linkFrom, uniqueEmail, verifiedSession, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import zapier from "zapier-platform-core";
import App from "../index.js";

// The Zapier app's own tests (zapier-platform-core's appTester) against the gateway of the test
// stack: its API key authentication, a REST Hook subscribed, received and unsubscribed, the polling
// fallback, and the actions (create or update a contact, add a tag, start a craft).
jest.setTimeout(120_000);

process.env.CRAFTER_API_URL = gatewayUrl();
const appTester = zapier.createAppTester(App) as (method: any, bundle?: any) => Promise<any>;

const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
let receiver: Server;
let targetUrl = "";
let owner: GatewaySession;
let apiKey = "";
let readOnlyKey = "";

async function until<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  for (let waited = 0; ; waited += 200) {
    const value = await read();
    if (ok(value)) return value;
    if (waited > 30_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "application/json" }).end('{"status":"success"}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  targetUrl = `http://hooks.crafter.test:${(receiver.address() as AddressInfo).port}/hooks/standard/1/zap`;

  ({ session: owner } = await verifiedSession("zapier-owner"));
  const created = await owner.post("/api/projects/createProject", {
    name: "Town Bikes",
    description: "A bicycle shop that repairs and rents bikes in the town centre.",
  });
  expect(created.status).toBe(201);
  const ownerId = (await owner.get("/auth/check")).body.result.user.userId;
  const admin = new GatewaySession();
  const adminEmail = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  await admin.post("/auth/signup", { email: adminEmail, password: "password-123" });
  const token = linkFrom(await waitForEmail(adminEmail, "Verify your email"), "/verify").searchParams.get("token")!;
  await admin.post("/auth/verify", { token });
  expect((await admin.post("/auth/signin", { email: adminEmail, password: "password-123" })).status).toBe(200);
  expect(
    (await admin.put(`/api/admin/users/${ownerId}/flags`, { flag: "zapier_integration", enabled: true })).status,
  ).toBe(200);
  const key = await owner.post("/api/settings/apiKeys", { name: "Zapier", scopes: ["read", "zapier", "crafts"] });
  expect(key.status).toBe(201);
  apiKey = key.body.result.secret;
  const readOnly = await owner.post("/api/settings/apiKeys", { name: "Reports", scopes: ["read"] });
  readOnlyKey = readOnly.body.result.secret;
});

afterAll(() => new Promise((resolve) => receiver?.close(resolve)));

describe("the Zapier app against the gateway", () => {
  let subscription: { id: string; event: string; targetUrl: string };

  it("authenticates with a personal API key and refuses a wrong one", async () => {
    const account = await appTester(App.authentication.test, { authData: { apiKey } });
    expect(account).toBeTruthy();
    await expect(appTester(App.authentication.test, { authData: { apiKey: "crk_nope" } })).rejects.toThrow();
  });

  it("subscribes a REST Hook, and a key without the zapier scope cannot", async () => {
    const trigger = App.triggers.contact_created.operation;
    await expect(appTester(trigger.performSubscribe, { authData: { apiKey: readOnlyKey }, targetUrl })).rejects.toThrow(
      /zapier/,
    );
    subscription = await appTester(trigger.performSubscribe, { authData: { apiKey }, targetUrl });
    expect(subscription).toMatchObject({ event: "contact.created", targetUrl });
    const listed = await owner.get("/api/integrations/webhooks");
    expect(listed.body.result).toEqual([
      expect.objectContaining({ endpointId: subscription.id, source: "zapier", events: ["contact.created"] }),
    ]);
  });

  it("creates a contact, which reaches the hook and the polling fallback as the same item", async () => {
    const email = uniqueEmail("zap");
    const contact = await appTester(App.creates.contact.operation.perform, {
      authData: { apiKey },
      inputData: { email, firstName: "Ada", tags: ["zapier"] },
    });
    expect(contact).toMatchObject({ email, firstName: "Ada", tags: ["zapier"], consent: "pending" });
    const hook = await until(
      () => received.find((r) => r.body.includes(email)),
      (r) => r !== undefined,
      "the hook delivery",
    );
    const [item] = await appTester(App.triggers.contact_created.operation.perform, {
      authData: { apiKey },
      cleanedRequest: JSON.parse(hook!.body),
      rawRequest: { headers: { "Http-Webhook-Id": hook!.headers["webhook-id"] } },
    });
    expect(item).toMatchObject({
      id: hook!.headers["webhook-id"],
      type: "contact.created",
      email,
      contactId: contact.id,
    });
    const listed = await appTester(App.triggers.contact_created.operation.performList, { authData: { apiKey } });
    expect(listed.find((recent: { email: string }) => recent.email === email)).toEqual(item);

    // The same email again updates that contact rather than adding one.
    const updated = await appTester(App.creates.contact.operation.perform, {
      authData: { apiKey },
      inputData: { email, lastName: "Lovelace" },
    });
    expect(updated).toMatchObject({ id: contact.id, firstName: "Ada", lastName: "Lovelace" });
    const tagged = await appTester(App.creates.tag.operation.perform, {
      authData: { apiKey },
      inputData: { email, tag: "vip" },
    });
    expect(tagged.tags.sort()).toEqual(["vip", "zapier"]);
    await expect(
      appTester(App.creates.tag.operation.perform, {
        authData: { apiKey },
        inputData: { email: uniqueEmail("nobody"), tag: "vip" },
      }),
    ).rejects.toThrow(/No contact has the email/);
  });

  it("starts a craft from a workflow", async () => {
    const craft = await appTester(App.creates.craft.operation.perform, {
      authData: { apiKey },
      inputData: { workflowName: "BlogWriter", craftName: "From Zapier" },
    });
    expect(craft).toMatchObject({ workflowName: "BlogWriter", currentStep: "topic" });
    const read = await owner.get(`/api/workflowsV2/${craft.craftId}`);
    expect(read.status).toBe(200);
  });

  it("unsubscribes the hook", async () => {
    await appTester(App.triggers.contact_created.operation.performUnsubscribe, {
      authData: { apiKey },
      subscribeData: subscription,
    });
    expect((await owner.get("/api/integrations/webhooks")).body.result).toEqual([]);
    await expect(
      appTester(App.triggers.contact_created.operation.performUnsubscribe, {
        authData: { apiKey },
        subscribeData: subscription,
      }),
    ).rejects.toThrow();
  });
});
