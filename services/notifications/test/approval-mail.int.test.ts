import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { createLogger, keyRing } from "@crafter/kit";
import { stackEnv, throwawayDatabase } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { newReviewToken, reviewTokenHash } from "../src/domain/approval";
import { createSmtpMailer, type Mailer } from "../src/mail/mailer";
import {
  type ApprovalLinkDoc,
  type ApprovalRepository,
  createApprovalRepository,
} from "../src/store/approval.repository";
import { createDeliveryRepository, type DeliveryRepository } from "../src/store/delivery.repository";
import {
  APPROVAL_MAIL_GIVE_UP_MS,
  emailOwner,
  emailReviewer,
  retryApprovalMail,
  reviewNoticeMailId,
  reviewRequestMailId,
  sendApprovalMail,
} from "../src/usecases/approval-mail";

// Approval emails against the real MongoDB-compatible server and Mailpit, in a throwaway database.
// "SMTP down" is a real SMTP URL on a port nothing listens on; "restored" is Mailpit.
const env = stackEnv();
const logger = createLogger("notifications-test", "silent");
const api = env.MAILPIT_API_URL ?? "http://127.0.0.1:8025";
let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let approvals: ApprovalRepository;
let deliveries: DeliveryRepository;
let down: Mailer;
let up: Mailer;

/** A local port that was free a moment ago and is closed now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  database = await throwawayDatabase("notifications");
  approvals = await createApprovalRepository(database.connection);
  deliveries = await createDeliveryRepository(database.connection);
  const from = "Crafter <no-reply@crafter.local>";
  down = createSmtpMailer({ url: `smtp://127.0.0.1:${await closedPort()}`, from, timeoutMs: 3000 });
  up = createSmtpMailer({ url: env.SMTP_URL ?? "smtp://127.0.0.1:1025", from, timeoutMs: 5000 });
});

afterAll(async () => {
  down?.close();
  up?.close();
  await database?.drop();
});

const origin = "http://localhost:8080";
let clock = Date.now();

/** The deps of the approval emails; `mailer` is switched between the closed port and Mailpit. */
function depsWith(mailer: Mailer) {
  return {
    stores: { approvals, deliveries },
    email: {},
    mailer,
    publicOrigin: origin,
    logger,
    now: () => new Date(clock),
    sender: { keys: keyRing([{ id: "t", key: randomBytes(32) }]) },
  } as unknown as Parameters<typeof emailOwner>[0];
}

async function messagesTo(to: string): Promise<{ ID: string; Subject: string }[]> {
  const response = await fetch(`${api}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`);
  return ((await response.json()) as { messages: { ID: string; Subject: string }[] }).messages;
}

async function waitForMessages(to: string, count: number): Promise<{ ID: string; Subject: string }[]> {
  let messages: { ID: string; Subject: string }[] = [];
  for (let i = 0; i < 40; i++) {
    messages = await messagesTo(to);
    if (messages.length >= count) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // A moment more: a second copy would have arrived by now.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return messagesTo(to);
}

async function newLink(overrides: Partial<ApprovalLinkDoc> = {}): Promise<{ link: ApprovalLinkDoc; token: string }> {
  const token = newReviewToken();
  const id = randomUUID().slice(0, 8);
  const link: ApprovalLinkDoc = {
    _id: reviewTokenHash(token)!,
    linkId: randomUUID(),
    userId: "owner",
    projectId: "",
    subjectKind: "campaign",
    subjectId: randomUUID(),
    subjectKey: "",
    title: `Spring sale ${id}`,
    appPath: "/app/email/campaigns/x",
    sections: [],
    reviewerName: "Dana",
    reviewerEmail: `reviewer-${id}@example.test`,
    createdBy: "owner",
    createdByEmail: `owner-${id}@example.test`,
    createdByName: "Olive",
    createdAt: new Date(clock),
    expiresAt: new Date(clock + 7 * 86_400_000),
    ...overrides,
  };
  link.subjectKey = `campaign:${link.subjectId}`;
  await approvals.insertLink(link);
  return { link, token };
}

describe("approval emails", () => {
  it("retries the owner's notice while SMTP is down, sends it once it is back, and never twice", async () => {
    const { link } = await newLink();
    const event = {
      _id: randomUUID(),
      linkId: link.linkId,
      userId: link.userId,
      subjectKey: link.subjectKey,
      kind: "approved" as const,
      body: "",
      authorName: "Dana",
      createdAt: new Date(clock),
    };
    await approvals.addEvent(event);
    expect(await emailOwner(depsWith(down), link, event)).toBe("waiting");
    expect(await retryApprovalMail(depsWith(down))).toMatchObject({ waiting: 1, sent: 0 });
    expect(await messagesTo(link.createdByEmail)).toHaveLength(0);
    expect(await deliveries.find(event._id)).toMatchObject({ status: "failed", attempts: 2 });

    // SMTP is back: the next run of the job sends it; later runs and a redelivery send nothing more.
    expect(await retryApprovalMail(depsWith(up))).toMatchObject({ sent: 1, waiting: 0 });
    expect(await retryApprovalMail(depsWith(up))).toEqual({ sent: 0, waiting: 0, dropped: 0 });
    const again = await sendApprovalMail(depsWith(up), {
      _id: reviewNoticeMailId(event._id),
      kind: "review-notice",
      linkId: link.linkId,
      eventId: event._id,
      tokenSealed: "",
      createdAt: new Date(clock),
    });
    expect(again).toBe("sent");
    const messages = await waitForMessages(link.createdByEmail, 1);
    expect(messages.map((m) => m.Subject)).toEqual([`Dana approved “${link.title}”`]);
    expect(await deliveries.find(event._id)).toMatchObject({ status: "sent", attempts: 3 });
  });

  it("emails the reviewer their link once, even when two replicas retry it at the same time", async () => {
    const { link, token } = await newLink();
    const deps = depsWith(down);
    expect(await emailReviewer(deps, link, token)).toBe("waiting");
    // The token is kept only sealed, for the retries.
    const stored = await approvals.mail.findById(reviewRequestMailId(link.linkId)).lean();
    expect(stored?.tokenSealed).toMatch(/^v2\.t\./);
    expect(JSON.stringify(stored)).not.toContain(token);

    const restored = { ...deps, mailer: up };
    const runs = await Promise.all([retryApprovalMail(restored), retryApprovalMail(restored)]);
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBeGreaterThanOrEqual(1);
    const messages = await waitForMessages(link.reviewerEmail, 1);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.Subject).toContain(`asks for your review: ${link.title}`);
    const message = (await (await fetch(`${api}/api/v1/message/${messages[0]!.ID}`)).json()) as { Text: string };
    expect(message.Text).toContain(`${origin}/review/${token}`);
    expect(await approvals.mailWaiting(reviewRequestMailId(link.linkId))).toBe(false);
  });

  it("drops a reviewer's email once the link is revoked, and gives up after three days", async () => {
    const revoked = await newLink();
    const deps = depsWith(down);
    expect(await emailReviewer(deps, revoked.link, revoked.token)).toBe("waiting");
    await approvals.revoke(revoked.link, new Date(clock));
    expect(await retryApprovalMail({ ...deps, mailer: up })).toMatchObject({ dropped: 1, sent: 0 });

    const old = await newLink({ expiresAt: new Date(clock + 30 * 86_400_000) });
    expect(await emailReviewer(deps, old.link, old.token)).toBe("waiting");
    clock += APPROVAL_MAIL_GIVE_UP_MS + 60_000;
    expect(await retryApprovalMail(deps)).toMatchObject({ dropped: 1, waiting: 0 });
    expect(await deliveries.find(reviewRequestMailId(old.link.linkId))).toMatchObject({ status: "failed" });
    expect(await messagesTo(revoked.link.reviewerEmail)).toHaveLength(0);
    expect(await messagesTo(old.link.reviewerEmail)).toHaveLength(0);
  });
});
