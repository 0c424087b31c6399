import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { createKafka, createLogger, createPublisher, type Publisher, TOPICS, topicName } from "@crafter/kit";
import {
  GatewaySession,
  gatewayUrl,
  linkFrom,
  stackEnv,
  uniqueEmail,
  verifiedSession,
  waitForEmail,
} from "@crafter/kit/testing";
import { LeadCapturedSchema } from "@crafter/proto/crafter/events/v1/contacts_pb";
import { ReviewReceivedSchema } from "@crafter/proto/crafter/events/v1/reviews_pb";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { Webhook, WebhookVerificationError } from "standardwebhooks";

// Outgoing webhooks through the gateway and the notifications service: a local receiver (reached
// as hooks.crafter.test, pinned by WEBHOOKS_RESOLVE in the test stack) gets the project's events
// signed by the Standard Webhooks specification and verifies them with its library. The test stack
// runs the retry day at WEBHOOKS_RETRY_SCALE (about 4.3 s).
jest.setTimeout(120_000);

const env = stackEnv();

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The receiver: /ok answers 200, /flaky 500 once per webhook-id then 200, /down always 500. */
const received: Received[] = [];
const flakySeen = new Set<string>();
let receiver: Server;
let port = 0;

const hookUrl = (path: string) => `http://hooks.crafter.test:${port}${path}`;
const at = (path: string) => received.filter((r) => r.path === path);

async function eventually<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, what: string, ms = 30_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

let owner: GatewaySession;
let ownerId: string;
let projectId: string;
let formId: string;
let publisher: Publisher;

async function signUpAdmin(): Promise<GatewaySession> {
  const email = `admin-${randomUUID().slice(0, 8)}@admins.crafter.test`;
  const admin = new GatewaySession();
  await admin.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await admin.post("/auth/verify", { token });
  expect((await admin.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  return admin;
}

const hooks = (suffix = "") => `/api/integrations/webhooks${suffix}?projectId=${projectId}`;

async function createEndpoint(path: string, events: string[]) {
  const created = await owner.post(hooks(), { url: hookUrl(path), events });
  expect(created.status).toBe(201);
  return created.body.result as { endpoint: { endpointId: string; secretHint: string }; secret: string };
}

async function deliveries(endpointId: string) {
  const log = await owner.get(
    `/api/integrations/webhooks/${endpointId}/deliveries?projectId=${projectId}&pageSize=100`,
  );
  expect(log.status).toBe(200);
  return log.body.result.result as Array<{
    deliveryId: string;
    messageId: string;
    eventType: string;
    status: string;
    attempts: number;
    responseCode: number;
    error: string;
    payload: string;
  }>;
}

async function submitLead(email: string) {
  const response = await fetch(`${gatewayUrl()}/api/public/forms/${formId}/submissions`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: gatewayUrl() },
    body: JSON.stringify({ values: { email, firstName: "Grace" }, website: "" }),
  });
  expect(response.status).toBe(200);
  // A lead is captured once its address is confirmed (double opt-in).
  const token = linkFrom(await waitForEmail(email, "Please confirm your subscription"), "/confirm").searchParams.get(
    "token",
  );
  const confirmed = await fetch(`${gatewayUrl()}/api/public/consent/confirm`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: gatewayUrl() },
    body: JSON.stringify({ token }),
  });
  expect(confirmed.status).toBe(200);
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const id = String(req.headers["webhook-id"]);
      let status = 200;
      if (path === "/down") status = 500;
      if (path === "/flaky" && !flakySeen.has(id)) {
        flakySeen.add(id);
        status = 500;
      }
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "boom");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  port = (receiver.address() as AddressInfo).port;

  const [ownerSession, admin] = await Promise.all([verifiedSession("webhooks-owner"), signUpAdmin()]);
  owner = ownerSession.session;
  ownerId = (await owner.get("/auth/check")).body.result.user.userId;
  const created = await owner.post("/api/projects/createProject", {
    name: "Town Bikes",
    description: "A bicycle shop that repairs and rents bikes in the town centre.",
  });
  expect(created.status).toBe(201);
  projectId = created.body.result.project.projectId;
  const form = await owner.put(`/api/leads/form?projectId=${projectId}`, {
    title: "Riders' newsletter",
    fields: [
      { key: "email", label: "Email", type: "email", required: true },
      { key: "firstName", label: "First name", type: "text", required: true },
    ],
    consentText: "I agree to receive the shop's emails.",
    thankYouMessage: "Thanks!",
    doubleOptIn: true,
  });
  expect(form.status).toBe(200);
  formId = form.body.result.id;
  // Off by default: the routes refuse until the flag is on for the owner.
  const off = await owner.get(hooks());
  expect(off.status).toBe(403);
  expect(off.body.error.code).toBe("FEATURE_DISABLED");
  expect(
    (await admin.put(`/api/admin/users/${ownerId}/flags`, { flag: "zapier_integration", enabled: true })).status,
  ).toBe(200);
  const kafka = createKafka(env.KAFKA_BROKERS ?? "127.0.0.1:9092", "webhooks-test", createLogger("t", "silent"));
  publisher = await createPublisher(kafka);
});

afterAll(async () => {
  await publisher?.disconnect();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe("outgoing webhooks", () => {
  let endpointId: string;
  let secret: string;
  let leadMessageId: string;

  it("refuses private and local addresses", async () => {
    for (const url of [
      "http://127.0.0.1:8080/hook",
      "http://[::1]/hook",
      "http://10.1.2.3/hook",
      "http://169.254.169.254/latest/meta-data",
      "http://localhost:3000/hook",
      "http://printer.local/hook",
      "ftp://example.com/hook",
    ]) {
      const refused = await owner.post(hooks(), { url, events: ["lead.captured"] });
      expect({ url, status: refused.status }).toEqual({ url, status: 400 });
      expect(refused.body.error.fields.url).toBeTruthy();
    }
    const noEvents = await owner.post(hooks(), { url: hookUrl("/ok"), events: [] });
    expect(noEvents.status).toBe(400);
    const unknown = await owner.post(hooks(), { url: hookUrl("/ok"), events: ["contact.exploded"] });
    expect(unknown.status).toBe(400);
  });

  it("makes an endpoint whose secret is shown once", async () => {
    const created = await createEndpoint("/ok", ["lead.captured", "contact.created"]);
    endpointId = created.endpoint.endpointId;
    secret = created.secret;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.endpoint.secretHint).toBe(`whsec_…${secret.slice(-4)}`);
    const list = await owner.get(hooks());
    expect(list.status).toBe(200);
    expect(list.body.result).toEqual([
      expect.objectContaining({
        endpointId,
        url: hookUrl("/ok"),
        events: ["contact.created", "lead.captured"],
        enabled: true,
        source: "dashboard",
      }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain(secret);
  });

  it("signs a lead captured through the public form, and the receiver verifies it with the library", async () => {
    const email = uniqueEmail("rider");
    await submitLead(email);
    const lead = await eventually(
      () => at("/ok").find((r) => r.body.includes('"lead.captured"') && r.body.includes(email)),
      (r) => r !== undefined,
      "the lead.captured delivery",
    );
    const verified = new Webhook(secret).verify(lead!.body, lead!.headers as Record<string, string>) as {
      type: string;
      timestamp: string;
      data: Record<string, unknown>;
    };
    expect(verified).toMatchObject({
      type: "lead.captured",
      data: { projectId, email, source: "lead form", originId: formId },
    });
    expect(typeof verified.data.contactId).toBe("string");
    expect(Number.isNaN(Date.parse(verified.timestamp))).toBe(false);
    expect(lead!.headers["content-type"]).toBe("application/json");
    expect(lead!.headers["webhook-id"]).toMatch(/^msg_/);
    expect(Math.abs(Number(lead!.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    // Another secret, or a body changed on the way, does not verify.
    const other = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
    expect(() => new Webhook(other).verify(lead!.body, lead!.headers as Record<string, string>)).toThrow(
      WebhookVerificationError,
    );
    expect(() =>
      new Webhook(secret).verify(lead!.body.replace(email, "x@y.z"), lead!.headers as Record<string, string>),
    ).toThrow(WebhookVerificationError);
    leadMessageId = String(lead!.headers["webhook-id"]);

    // The same lead made a contact: contact.created comes to the same endpoint.
    await eventually(
      () => at("/ok").find((r) => r.body.includes('"contact.created"') && r.body.includes(email)),
      (r) => r !== undefined,
      "the contact.created delivery",
    );
    const log = await eventually(
      () => deliveries(endpointId),
      (items) => items.filter((d) => d.status === "succeeded").length >= 2,
      "the delivery log",
    );
    const logged = log.find((d) => d.messageId === leadMessageId)!;
    expect(logged).toMatchObject({ eventType: "lead.captured", status: "succeeded", attempts: 1, responseCode: 200 });
    expect(JSON.parse(logged.payload)).toEqual(verified);
  });

  it("makes no second delivery when the Kafka event is delivered again", async () => {
    const ceId = leadMessageId.slice("msg_".length);
    const lead = JSON.parse(at("/ok").find((r) => r.headers["webhook-id"] === leadMessageId)!.body) as {
      data: { contactId: string; email: string; originId: string };
    };
    const event = create(LeadCapturedSchema, {
      userId: ownerId,
      projectId,
      contactId: lead.data.contactId,
      email: lead.data.email,
      source: "lead form",
      originId: lead.data.originId,
    });
    await publisher.publish(
      topicName(env.CRAFTER_NAMESPACE ?? "crafter_test", TOPICS.contactsLead),
      lead.data.contactId,
      Buffer.from(toBinary(LeadCapturedSchema, event)),
      {
        ce_id: ceId,
        ce_type: LeadCapturedSchema.typeName,
        ce_source: "webhooks-test",
        ce_time: new Date().toISOString(),
      },
    );
    // A new event behind it on the same partition (same key): once it arrives, the redelivery was consumed.
    const sentinel = uniqueEmail("sentinel");
    await publisher.publish(
      topicName(env.CRAFTER_NAMESPACE ?? "crafter_test", TOPICS.contactsLead),
      lead.data.contactId,
      Buffer.from(toBinary(LeadCapturedSchema, create(LeadCapturedSchema, { ...event, email: sentinel }))),
      {
        ce_id: randomUUID(),
        ce_type: LeadCapturedSchema.typeName,
        ce_source: "webhooks-test",
        ce_time: new Date().toISOString(),
      },
    );
    await eventually(
      () => at("/ok").find((r) => r.body.includes(sentinel)),
      (r) => r !== undefined,
      "the event behind the redelivered one",
    );
    expect(at("/ok").filter((r) => r.headers["webhook-id"] === leadMessageId)).toHaveLength(1);
    expect((await deliveries(endpointId)).filter((d) => d.messageId === leadMessageId)).toHaveLength(1);
  });

  it("resends a delivery with the same webhook-id and a new signature", async () => {
    const delivery = (await deliveries(endpointId)).find((d) => d.messageId === leadMessageId)!;
    const resent = await owner.post(
      `/api/integrations/webhooks/${endpointId}/deliveries/${delivery.deliveryId}/resend?projectId=${projectId}`,
      {},
    );
    expect(resent.status).toBe(200);
    const copies = await eventually(
      () => at("/ok").filter((r) => r.headers["webhook-id"] === leadMessageId),
      (items) => items.length === 2,
      "the resent delivery",
    );
    expect(copies[1]!.body).toBe(copies[0]!.body);
    expect(() =>
      new Webhook(secret).verify(copies[1]!.body, copies[1]!.headers as Record<string, string>),
    ).not.toThrow();
    await eventually(
      async () => (await deliveries(endpointId)).find((d) => d.messageId === leadMessageId)!,
      (d) => d.attempts === 2 && d.status === "succeeded",
      "the resend in the log",
    );
    const unknown = await owner.post(
      `/api/integrations/webhooks/${endpointId}/deliveries/nope/resend?projectId=${projectId}`,
      {},
    );
    expect(unknown.status).toBe(404);
  });

  it("sends a test event on request", async () => {
    const sent = await owner.post(`/api/integrations/webhooks/${endpointId}/test?projectId=${projectId}`, {});
    expect(sent.status).toBe(200);
    expect(sent.body.result).toMatchObject({ eventType: "webhook.test", status: "pending" });
    const test = await eventually(
      () => at("/ok").find((r) => r.headers["webhook-id"] === sent.body.result.messageId),
      (r) => r !== undefined,
      "the test event",
    );
    expect(new Webhook(secret).verify(test!.body, test!.headers as Record<string, string>)).toMatchObject({
      type: "webhook.test",
      data: { projectId, endpointId },
    });
  });

  it("retries after a 500 with the same webhook-id, and logs both attempts", async () => {
    const flaky = await createEndpoint("/flaky", ["contact.created"]);
    const email = uniqueEmail("walk-in");
    const made = await owner.post(`/api/contacts?projectId=${projectId}`, { email, firstName: "Ada" });
    expect(made.status).toBe(201);
    const tries = await eventually(
      () => at("/flaky").filter((r) => r.body.includes(email)),
      (items) => items.length >= 2,
      "the retry",
    );
    expect(tries[1]!.headers["webhook-id"]).toBe(tries[0]!.headers["webhook-id"]);
    for (const attempt of tries)
      expect(() =>
        new Webhook(flaky.secret).verify(attempt.body, attempt.headers as Record<string, string>),
      ).not.toThrow();
    const [logged] = await eventually(
      () => deliveries(flaky.endpoint.endpointId),
      (items) => items[0]?.status === "succeeded",
      "the retried delivery's log",
    );
    expect(logged).toMatchObject({ eventType: "contact.created", attempts: 2, responseCode: 200, error: "" });
  });

  it("turns off a receiver that keeps failing for the whole retry day, and tells its owner", async () => {
    const down = await createEndpoint("/down", ["contact.created"]);
    const id = down.endpoint.endpointId;
    const email = uniqueEmail("nobody");
    expect((await owner.post(`/api/contacts?projectId=${projectId}`, { email })).status).toBe(201);
    const endpoint = await eventually(
      async () =>
        ((await owner.get(hooks())).body.result as Array<Record<string, unknown>>).find((e) => e.endpointId === id)!,
      (e) => e.enabled === false,
      "the endpoint to be turned off",
      60_000,
    );
    expect(endpoint).toMatchObject({ disabledReason: "failing" });
    expect(at("/down").filter((r) => r.body.includes(email))).toHaveLength(8);
    const [logged] = await deliveries(id);
    expect(logged).toMatchObject({ status: "failed", attempts: 8, responseCode: 500 });
    const inbox = await eventually(
      async () => (await owner.get("/api/notifications")).body.result.result as Array<{ title: string; body: string }>,
      (items) => items.some((n) => n.title === "A webhook endpoint was turned off"),
      "the owner's notification",
    );
    expect(inbox.find((n) => n.title === "A webhook endpoint was turned off")!.body).toContain(hookUrl("/down"));
    // Off: no test events, no resends, and nothing new is delivered.
    const test = await owner.post(`/api/integrations/webhooks/${id}/test?projectId=${projectId}`, {});
    expect(test.status).toBe(409);
    // On again by its owner.
    const on = await owner.put(`/api/integrations/webhooks/${id}?projectId=${projectId}`, { enabled: true });
    expect(on.status).toBe(200);
    expect(on.body.result).toMatchObject({ enabled: true, disabledReason: "" });
    const removed = await owner.request("DELETE", `/api/integrations/webhooks/${id}?projectId=${projectId}`, {});
    expect(removed.status).toBe(200);
    expect(removed.body.result).toEqual({ deleted: true });
    const gone = await owner.request("DELETE", `/api/integrations/webhooks/${id}?projectId=${projectId}`, {});
    expect(gone.status).toBe(404);
  });

  it("carries a review received from the business's Google Business Profile", async () => {
    const reviews = await createEndpoint("/ok", ["review.received"]);
    const reviewId = randomUUID();
    const event = create(ReviewReceivedSchema, {
      userId: ownerId,
      projectId,
      reviewId,
      source: "google",
      remoteReviewId: "r-1",
      location: "locations/1",
      author: "Grace",
      rating: 5,
      text: "Fixed my puncture in ten minutes.",
      reviewedAt: { seconds: 1_795_000_000n, nanos: 0 },
    });
    await publisher.publish(
      topicName(env.CRAFTER_NAMESPACE ?? "crafter_test", TOPICS.projectsProject),
      projectId,
      Buffer.from(toBinary(ReviewReceivedSchema, event)),
      {
        ce_id: randomUUID(),
        ce_type: ReviewReceivedSchema.typeName,
        ce_source: "webhooks-test",
        ce_time: new Date().toISOString(),
      },
    );
    const review = await eventually(
      () => at("/ok").find((r) => r.body.includes(reviewId)),
      (r) => r !== undefined,
      "the review.received delivery",
    );
    expect(new Webhook(reviews.secret).verify(review!.body, review!.headers as Record<string, string>)).toMatchObject({
      type: "review.received",
      data: {
        projectId,
        reviewId,
        rating: 5,
        comment: "Fixed my puncture in ten minutes.",
        reviewerName: "Grace",
        createdAt: new Date(1_795_000_000_000).toISOString(),
      },
    });
  });

  it("keeps each project's endpoints to itself", async () => {
    const { session: stranger } = await verifiedSession("webhooks-stranger");
    const peek = await stranger.get(`/api/integrations/webhooks/${endpointId}/deliveries?projectId=${projectId}`);
    expect([403, 404]).toContain(peek.status);
  });
});
