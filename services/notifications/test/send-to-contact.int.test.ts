import { randomUUID } from "node:crypto";
import { createLogger } from "@crafter/kit";
import {
  type GatewaySession,
  stackEnv,
  stackServiceCredentials,
  throwawayDatabase,
  verifiedSession,
} from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { workflowsEmailCrafts } from "../src/clients/crafts";
import { billingUsage, contactsLinks, contactsPort, fixedProvider, projectsBusiness } from "../src/clients/email-ports";
import type { NotificationsDeps } from "../src/deps";
import { EmailEvents } from "../src/events/publishers";
import { createSmtpMailer, type Mailer } from "../src/mail/mailer";
import { smtpProvider, Throttle } from "../src/mail/providers";
import { createStores } from "../src/store";
import { sendToContact } from "../src/usecases/send-to-contact";

// sendToContact against the real contacts and billing services of the test stack (their
// notifications-token access), Mailpit, and a throwaway database for the deliveries.
jest.setTimeout(60_000);

const env = stackEnv();
const mailpit = env.MAILPIT_API_URL ?? "http://127.0.0.1:8025";
let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let mailer: Mailer;
let deps: Pick<NotificationsDeps, "stores" | "email" | "publicOrigin" | "logger" | "now">;
let userId: string;
let projectId: string;
let profileId: string;
let session: GatewaySession;
const contacts: Record<string, string> = {};
const domain = `s${randomUUID().slice(0, 8)}.automation.test`;

beforeAll(async () => {
  database = await throwawayDatabase("notifications_email");
  mailer = createSmtpMailer({
    url: env.SMTP_URL ?? "smtp://127.0.0.1:1025",
    from: "Crafter <news@crafter.test>",
    timeoutMs: 5000,
  });
  const credentials = stackServiceCredentials("notifications");
  const secret = "t".repeat(40);
  deps = {
    stores: await createStores(database.connection),
    publicOrigin: "http://localhost:8080",
    logger: createLogger("send-to-contact-test", "silent"),
    now: () => new Date(),
    email: {
      contacts: contactsPort(env.CONTACTS_URL!, 10_000, credentials),
      links: contactsLinks(env.CONTACTS_URL!, 10_000, credentials),
      usage: billingUsage(env.BILLING_URL!, 10_000, credentials),
      // The service token (no user's): the business profile as it is at each send.
      business: projectsBusiness(env.PROJECTS_URL!, 10_000, database.connection, credentials),
      crafts: workflowsEmailCrafts(env.WORKFLOWS_URL!, 10_000),
      providers: fixedProvider(smtpProvider(mailer), new Throttle(50)),
      events: new EmailEvents("inttest"),
      kick: () => {},
      trackingSecret: secret,
      retry: { attempts: 2, baseMs: 50 },
      concurrency: 2,
      attemptLeaseMs: 5000,
      limitRetryMs: 1000,
    },
  };
  ({ session } = await verifiedSession("automation"));
  const project = await session.post("/api/projects/createProject", {
    name: "Crumb & Co. Bakery",
    description: "A neighbourhood sourdough bakery baking naturally leavened bread every morning.",
  });
  projectId = project.body.result.project.projectId;
  profileId = project.body.result.profile.profileId;
  await setAddress("1 Mill Lane\nBristol");
  userId = JSON.parse(Buffer.from(session.cookies.get("crafter_at")!.split(".")[1]!, "base64url").toString()).sub;
  for (const [name, consent] of [
    ["ann", "subscribed"],
    ["bob", "unsubscribed"],
  ] as const) {
    const created = await session.post(`/api/contacts?projectId=${projectId}`, {
      email: `${name}@${domain}`,
      firstName: name === "ann" ? "Ann" : "Bob",
    });
    expect(created.status).toBe(201);
    contacts[name] = created.body.result.id;
    const changed = await session.request("PATCH", `/api/contacts/${contacts[name]}?projectId=${projectId}`, {
      consent,
    });
    expect(changed.status).toBe(200);
  }
});

afterAll(async () => {
  mailer?.close();
  await database?.drop();
});

/** Sets the business profile's postal address ("" removes it). */
async function setAddress(address: string) {
  const changed = await session.request("PATCH", `/api/profiles/${profileId}`, { values: { address } });
  expect(changed.status).toBe(200);
}

async function mailTo(address: string) {
  const response = await fetch(`${mailpit}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`);
  return ((await response.json()) as { messages: { ID: string; Subject: string }[] }).messages;
}

const input = (contact: string, key: string) => ({
  userId,
  projectId,
  contactId: contacts[contact]!,
  subject: 'Welcome, {{contact.firstName | "friend"}}',
  html: '<p>Welcome to the bakery. <a href="https://bakery.example/menu">Menu</a></p>',
  source: { kind: "automation" as const, id: "auto-1" },
  key,
});

describe("sendToContact", () => {
  it("emails a subscribed contact once per key, with the footer links and one-click headers", async () => {
    const first = await sendToContact(deps, input("ann", "run-1:step-1"));
    expect(first).toMatchObject({ status: "queued" });
    const again = await sendToContact(deps, input("ann", "run-1:step-1"));
    expect(again).toEqual({ deliveryId: first.deliveryId, status: "skipped", reason: "duplicate" });
    let messages: { ID: string; Subject: string }[] = [];
    for (let i = 0; i < 40 && messages.length === 0; i++) {
      messages = await mailTo(`ann@${domain}`);
      if (messages.length === 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(messages.map((m) => m.Subject)).toEqual(["Welcome, Ann"]);
    const headers = (await (await fetch(`${mailpit}/api/v1/message/${messages[0]!.ID}/headers`)).json()) as Record<
      string,
      string[]
    >;
    expect(headers["List-Unsubscribe-Post"]).toEqual(["List-Unsubscribe=One-Click"]);
    // The footer's address is the business profile's, read with the service's token (no user here).
    const body = (await (await fetch(`${mailpit}/api/v1/message/${messages[0]!.ID}`)).json()) as { Text: string };
    expect(body.Text).toContain("1 Mill Lane, Bristol");
    const facts = await deps.stores.email.factsOf(first.deliveryId);
    expect(facts.map((f) => f.kind)).toEqual(["attempt", "sent"]);
  });

  it("skips a contact who is not subscribed, and one that does not exist, sending nothing", async () => {
    expect(await sendToContact(deps, input("bob", "run-2:step-1"))).toMatchObject({
      status: "skipped",
      reason: "not_subscribed",
    });
    expect(await sendToContact(deps, { ...input("bob", "run-3:step-1"), contactId: randomUUID() })).toMatchObject({
      status: "skipped",
      reason: "not_subscribed",
    });
    // The same key answers the same.
    expect(await sendToContact(deps, input("bob", "run-2:step-1"))).toMatchObject({ reason: "not_subscribed" });
    expect(await mailTo(`bob@${domain}`)).toHaveLength(0);
  });
  it("sends nothing once the business profile's postal address is removed, for good for that key", async () => {
    await setAddress("");
    try {
      const refused = await sendToContact(deps, input("ann", "run-5:step-1"));
      expect(refused).toMatchObject({ status: "skipped", reason: "no_address" });
      expect((await deps.stores.email.factsOf(refused.deliveryId)).map((f) => [f.kind, f.detail])).toEqual([
        ["skipped", "no_address"],
      ]);
    } finally {
      await setAddress("1 Mill Lane\nBristol");
    }
    expect(await sendToContact(deps, input("ann", "run-5:step-1"))).toMatchObject({ reason: "no_address" });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await mailTo(`ann@${domain}`)).map((m) => m.Subject)).toEqual(["Welcome, Ann"]);
  });
});
