import { randomUUID } from "node:crypto";
import { createLogger } from "@crafter/kit";
import { stackEnv, throwawayDatabase } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { renderVerificationEmail } from "../src/domain/templates";
import { createSmtpMailer, type Mailer } from "../src/mail/mailer";
import { createDeliveryRepository, type DeliveryRepository } from "../src/store/delivery.repository";
import { deliverEmail } from "../src/usecases/deliver-email";

// Against the real MongoDB-compatible server and Mailpit of scripts/infra, in a throwaway database.
const env = stackEnv();
const logger = createLogger("notifications-test", "silent");
let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let deliveries: DeliveryRepository;
let mailer: Mailer;

beforeAll(async () => {
  database = await throwawayDatabase("notifications");
  deliveries = await createDeliveryRepository(database.connection);
  mailer = createSmtpMailer({
    url: env.SMTP_URL ?? "smtp://127.0.0.1:1025",
    from: "Crafter <no-reply@crafter.local>",
    timeoutMs: 5000,
  });
});

afterAll(async () => {
  mailer?.close();
  await database?.drop();
});

async function mailbox(to: string): Promise<{ Subject: string }[]> {
  const api = env.MAILPIT_API_URL ?? "http://127.0.0.1:8025";
  const response = await fetch(`${api}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`);
  return ((await response.json()) as { messages: { Subject: string }[] }).messages;
}

const origin = "http://localhost:8080";
const verification = () =>
  renderVerificationEmail({
    displayName: "Int",
    link: `${origin}/verify?token=abc`,
    expiresAt: new Date(Date.now() + 3_600_000),
    now: new Date(),
  });

async function messagesTo(to: string, atLeast: number): Promise<{ Subject: string; MessageID: string }[]> {
  let messages: { Subject: string; MessageID: string }[] = [];
  for (let i = 0; i < 40 && messages.length < atLeast; i++) {
    messages = (await mailbox(to)) as { Subject: string; MessageID: string }[];
    if (messages.length < atLeast) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return messages;
}

const kinds = async (eventId: string) =>
  (await deliveries.factsOf(eventId)).map((fact) => `${fact.kind}:${fact.attempt}`).sort();

describe("event emails", () => {
  it("records the attempt before the SMTP hand-off and sends once, however often the event is delivered", async () => {
    const to = `int-${randomUUID().slice(0, 8)}@example.test`;
    const eventId = randomUUID();
    const deps = { stores: { deliveries }, mailer, publicOrigin: origin, logger, now: () => new Date() };
    const input = { eventId, userId: "u", to, template: "verify-email" as const, email: verification() };
    expect(await deliverEmail(deps, input)).toBe("sent");
    expect(await deliverEmail(deps, input)).toBe("already-sent");
    const messages = await messagesTo(to, 1);
    expect(messages.map((message) => message.Subject)).toEqual(["Verify your email for Crafter"]);
    const facts = await deliveries.factsOf(eventId);
    expect(facts.map((fact) => fact.kind)).toEqual(["attempt", "sent"]);
    expect(facts[0]!.at.getTime()).toBeLessThanOrEqual(facts[1]!.at.getTime());
    expect(await deliveries.find(eventId)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("after a kill between hand-off and record, sends again with the same Message-ID and records a possible duplicate", async () => {
    const to = `int-${randomUUID().slice(0, 8)}@example.test`;
    const eventId = randomUUID();
    const input = { eventId, userId: "u", to, template: "verify-email" as const, email: verification() };
    // What a worker killed right after the hand-off leaves: the attempt, no outcome, 25 s ago.
    await deliveries.open(input);
    await deliveries.addFact(
      { eventId, kind: "attempt", attempt: 1, detail: "killed:1" },
      new Date(Date.now() - 25_000),
    );
    const deps = { stores: { deliveries }, mailer, publicOrigin: origin, logger, now: () => new Date() };
    expect(await deliverEmail(deps, input)).toBe("sent");
    expect(await kinds(eventId)).toEqual(["attempt:1", "attempt:2", "resent:2", "sent:2"]);
    const [message] = await messagesTo(to, 1);
    expect(message?.MessageID).toBe(`${eventId}.verify-email@localhost`);
    expect(await deliverEmail(deps, input)).toBe("already-sent");
  });

  it("waits for a live worker's attempt instead of sending beside it", async () => {
    const to = `int-${randomUUID().slice(0, 8)}@example.test`;
    const eventId = randomUUID();
    const input = { eventId, userId: "u", to, template: "verify-email" as const, email: verification() };
    await deliveries.open(input);
    await deliveries.addFact({ eventId, kind: "attempt", attempt: 1, detail: "other:1" }, new Date());
    const other = setTimeout(
      () => void deliveries.addFact({ eventId, kind: "sent", attempt: 1, detail: "<m@other>" }, new Date()),
      1000,
    );
    const deps = {
      stores: { deliveries },
      mailer,
      publicOrigin: origin,
      logger,
      now: () => new Date(),
      leaseMs: 10_000,
    };
    expect(await deliverEmail(deps, input)).toBe("already-sent");
    clearTimeout(other);
    expect(await kinds(eventId)).toEqual(["attempt:1", "sent:1"]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await mailbox(to)).toEqual([]);
  });

  it("records a failed send and rethrows it; the retry is a new attempt, not a duplicate", async () => {
    const broken = createSmtpMailer({ url: "smtp://127.0.0.1:1", from: "x <x@crafter.local>", timeoutMs: 2000 });
    const eventId = randomUUID();
    const to = `int-${randomUUID().slice(0, 8)}@example.test`;
    const deps = { stores: { deliveries }, mailer: broken, publicOrigin: origin, logger, now: () => new Date() };
    const email = { subject: "s", text: "t", html: "<p>h</p>" };
    const input = { eventId, userId: "u", to, template: "reset-password" as const, email };
    await expect(deliverEmail(deps, input)).rejects.toThrow(/ECONNREFUSED/);
    expect(await deliveries.find(eventId)).toMatchObject({ status: "failed", attempts: 1 });
    broken.close();
    expect(await deliverEmail({ ...deps, mailer }, input)).toBe("sent");
    expect(await kinds(eventId)).toEqual(["attempt:1", "attempt:2", "failed:1", "sent:2"]);
  });
});
