// The local SendGrid answers as SendGrid's v3 documentation says (paths, error shape, paging) and
// signs its event webhook posts so that SendGrid's documented verification accepts them.
import { createPublicKey, createVerify } from "node:crypto";
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { LocalSendgridServer } from "../src/sendgrid";

const fake = new LocalSendgridServer({
  keys: {
    "SG.full": { account: "bakery" },
    "SG.read-only": { account: "bakery", scopes: ["user.webhooks.event.settings.read"] },
  },
});
let base = "";
let receiver: Server;
let receiverUrl = "";
const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];

const call = async (path: string, key: string, init: { method?: string; json?: unknown } = {}) => {
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null };
};

const mail = (to = "ada@example.test") => ({
  personalizations: [{ to: [{ email: to }], custom_args: { delivery_id: "d1" } }],
  from: { email: "hello@bakery.example" },
  subject: "Spring loaves",
  content: [{ type: "text/plain", value: "Fresh bread" }],
});

beforeAll(async () => {
  base = `http://127.0.0.1:${await fake.start(0)}`;
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  await fake.stop();
  receiver.close();
});

describe("the local SendGrid", () => {
  it("accepts mail with the key's mail.send scope: 202 and X-Message-Id", async () => {
    const answer = await call("/v3/mail/send", "SG.full", { method: "POST", json: mail() });
    expect(answer.status).toBe(202);
    expect(answer.headers.get("x-message-id")).toMatch(/^[\w-]{10,}$/);
    expect(fake.seen.mail.at(-1)).toMatchObject({ key: "SG.full", account: "bakery" });
  });

  it("refuses as SendGrid does: 401 unknown key, 403 missing scope, 400 naming the field", async () => {
    const unknown = await call("/v3/mail/send", "SG.nope", { method: "POST", json: mail() });
    expect(unknown.status).toBe(401);
    expect(unknown.json.errors[0]).toEqual({
      field: null,
      help: null,
      message: expect.stringMatching(/invalid|revoked/),
    });
    const scoped = await call("/v3/mail/send", "SG.read-only", { method: "POST", json: mail() });
    expect(scoped.status).toBe(403);
    expect(scoped.json.errors[0].message).toBe("access forbidden");
    const bad = await call("/v3/mail/send", "SG.full", { method: "POST", json: { ...mail(), from: {} } });
    expect(bad.status).toBe(400);
    expect(bad.json.errors[0].field).toBe("from");
  });

  it("lists the key's scopes and the account's senders a page at a time", async () => {
    expect((await call("/v3/scopes", "SG.read-only")).json).toEqual({ scopes: ["user.webhooks.event.settings.read"] });
    for (const address of ["a@bakery.example", "b@bakery.example", "c@bakery.example"])
      fake.addSender("bakery", { from_email: address });
    const first = await call("/v3/verified_senders?limit=2", "SG.full");
    expect(first.json.results.map((s: { from_email: string }) => s.from_email)).toEqual([
      "a@bakery.example",
      "b@bakery.example",
    ]);
    const next = await call(`/v3/verified_senders?limit=2&lastSeenID=${first.json.results[1].id}`, "SG.full");
    expect(next.json.results.map((s: { from_email: string }) => s.from_email)).toEqual(["c@bakery.example"]);
  });

  it("configures a signed event webhook and posts events SendGrid's verification accepts", async () => {
    const created = await call("/v3/user/webhooks/event/settings", "SG.full", {
      method: "POST",
      json: { enabled: true, url: receiverUrl, friendly_name: "Crafter", bounce: true, delivered: true },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ enabled: true, url: receiverUrl, bounce: true, open: false });
    expect(
      (await call(`/v3/user/webhooks/event/settings/${created.json.id}`, "SG.read-only", { method: "PATCH", json: {} }))
        .status,
    ).toBe(403);
    const signed = await call(`/v3/user/webhooks/event/settings/signed/${created.json.id}`, "SG.full", {
      method: "PATCH",
      json: { enabled: true },
    });
    expect(signed.json).toEqual({ id: created.json.id, public_key: expect.stringMatching(/^[A-Za-z0-9+/=]{80,}$/) });
    expect((await call("/v3/user/webhooks/event/settings/all", "SG.full")).json.webhooks).toHaveLength(1);

    const messageId = fake.seen.mail[0]!.messageId;
    const [post] = await fake.sendEvents(messageId, ["delivered", "bounce", "open"]);
    expect(post).toMatchObject({ status: 200, signed: true });
    const got = received.at(-1)!;
    const events = JSON.parse(got.body);
    // open is off on this webhook; custom_args come at the top level of each event.
    expect(events.map((e: { event: string }) => e.event)).toEqual(["delivered", "bounce"]);
    expect(events[1]).toMatchObject({ email: "ada@example.test", delivery_id: "d1", type: "bounce" });
    const key = createPublicKey({ key: Buffer.from(signed.json.public_key, "base64"), format: "der", type: "spki" });
    const verify = createVerify("sha256");
    verify.update(String(got.headers["x-twilio-email-event-webhook-timestamp"]) + got.body);
    expect(
      verify.verify(key, Buffer.from(String(got.headers["x-twilio-email-event-webhook-signature"]), "base64")),
    ).toBe(true);
  });

  it("answers 401 to every call with a revoked key", async () => {
    fake.addKey("SG.gone", { account: "bakery" });
    expect((await call("/v3/scopes", "SG.gone")).status).toBe(200);
    fake.revoke("SG.gone");
    expect((await call("/v3/scopes", "SG.gone")).status).toBe(401);
    expect((await call("/v3/mail/send", "SG.gone", { method: "POST", json: mail() })).status).toBe(401);
  });
});
