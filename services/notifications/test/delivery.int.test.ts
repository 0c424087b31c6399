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

describe("deliveries", () => {
  it("claims an event once it is sent, and again while it is not", async () => {
    const eventId = randomUUID();
    const input = { eventId, userId: "u", to: "x@example.test", template: "verify-email" as const };
    expect(await deliveries.claim(input)).toBe("claimed");
    await deliveries.markFailed(eventId, "boom");
    expect(await deliveries.claim(input)).toBe("claimed");
    expect(await deliveries.find(eventId)).toMatchObject({ status: "sending", attempts: 2, lastError: "boom" });
    await deliveries.markSent(eventId, "<m@x>", new Date());
    expect(await deliveries.claim(input)).toBe("already-sent");
    expect(await deliveries.find(eventId)).toMatchObject({
      status: "sent",
      attempts: 2,
      lastError: "",
      messageId: "<m@x>",
    });
  });

  it("sends an event's email over SMTP once, however often it is delivered", async () => {
    const to = `int-${randomUUID().slice(0, 8)}@example.test`;
    const eventId = randomUUID();
    const deps = {
      stores: { deliveries },
      mailer,
      publicOrigin: "http://localhost:8080",
      logger,
      now: () => new Date(),
    };
    const email = renderVerificationEmail({
      displayName: "Int",
      link: "http://localhost:8080/verify?token=abc",
      expiresAt: new Date(Date.now() + 3_600_000),
      now: new Date(),
    });
    const input = { eventId, userId: "u", to, template: "verify-email" as const, email };
    expect(await deliverEmail(deps, input)).toBe("sent");
    expect(await deliverEmail(deps, input)).toBe("already-sent");
    let messages: { Subject: string }[] = [];
    for (let i = 0; i < 40 && messages.length === 0; i++) {
      messages = await mailbox(to);
      if (messages.length === 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(messages.map((message) => message.Subject)).toEqual(["Verify your email for Crafter"]);
    expect(await deliveries.find(eventId)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("records a failed send and rethrows it", async () => {
    const broken = createSmtpMailer({ url: "smtp://127.0.0.1:1", from: "x <x@crafter.local>", timeoutMs: 2000 });
    const eventId = randomUUID();
    const deps = {
      stores: { deliveries },
      mailer: broken,
      publicOrigin: "http://localhost:8080",
      logger,
      now: () => new Date(),
    };
    const email = { subject: "s", text: "t", html: "<p>h</p>" };
    await expect(
      deliverEmail(deps, { eventId, userId: "u", to: "f@example.test", template: "reset-password", email }),
    ).rejects.toThrow(/ECONNREFUSED/);
    expect(await deliveries.find(eventId)).toMatchObject({ status: "failed", attempts: 1 });
    broken.close();
  });
});
