import { randomUUID } from "node:crypto";
import { fromBinary } from "@bufbuild/protobuf";
import { createLogger } from "@crafter/kit";
import {
  type GatewaySession,
  stackEnv,
  stackServiceCredentials,
  throwawayDatabase,
  verifiedSession,
} from "@crafter/kit/testing";
import { CampaignScheduledSchema } from "@crafter/proto/crafter/events/v1/email_pb";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { businessZones } from "../src/clients/business-zones";
import { workflowsEmailCrafts } from "../src/clients/crafts";
import { billingUsage, contactsLinks, contactsPort, fixedProvider, projectsBusiness } from "../src/clients/email-ports";
import type { NotificationsDeps } from "../src/deps";
import { EmailEvents } from "../src/events/publishers";
import { createSmtpMailer, type Mailer } from "../src/mail/mailer";
import { smtpProvider, Throttle } from "../src/mail/providers";
import { createStores } from "../src/store";
import { campaignsToDispatch, dispatchCampaign } from "../src/usecases/campaign-dispatch";
import { createCampaign, getCampaign, scheduleCampaign, sendCampaign, updateCampaign } from "../src/usecases/campaigns";

// A campaign at each contact's local time, dispatched with a fixed clock against the test stack's
// contacts, projects and billing services, Mailpit, and a throwaway database.
jest.setTimeout(90_000);

const env = stackEnv();
const mailpit = env.MAILPIT_API_URL ?? "http://127.0.0.1:8025";
let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let mailer: Mailer;
let clock = new Date();
let deps: Pick<NotificationsDeps, "stores" | "email" | "publicOrigin" | "logger" | "now" | "zones">;
let session: GatewaySession;
let userId: string;
let projectId: string;
let segmentId: string;
const domain = `lt${randomUUID().slice(0, 8)}.local-time.test`;
// Each contact's own zone; "" has none (the business's, London, applies).
const ZONES = { tokyo: "Asia/Tokyo", london: "Europe/London", nozone: "", la: "America/Los_Angeles" } as const;
type Who = keyof typeof ZONES;

beforeAll(async () => {
  database = await throwawayDatabase("notifications_local_time");
  mailer = createSmtpMailer({ url: env.SMTP_URL ?? "smtp://127.0.0.1:1025", from: "a@b.test", timeoutMs: 5000 });
  const credentials = stackServiceCredentials("notifications");
  deps = {
    stores: await createStores(database.connection),
    publicOrigin: "http://localhost:8080",
    logger: createLogger("local-time-test", "silent"),
    now: () => clock,
    zones: businessZones(database.connection),
    email: {
      contacts: contactsPort(env.CONTACTS_URL!, 10_000, credentials),
      links: contactsLinks(env.CONTACTS_URL!, 10_000, credentials),
      usage: billingUsage(env.BILLING_URL!, 10_000, credentials),
      business: projectsBusiness(env.PROJECTS_URL!, 10_000, database.connection, credentials),
      crafts: workflowsEmailCrafts(env.WORKFLOWS_URL!, 10_000),
      providers: fixedProvider(smtpProvider(mailer), new Throttle(50)),
      events: new EmailEvents("inttest"),
      kick: () => {},
      trackingSecret: "l".repeat(40),
      retry: { attempts: 2, baseMs: 50 },
      concurrency: 2,
      attemptLeaseMs: 5000,
      limitRetryMs: 1000,
    },
  };
  ({ session } = await verifiedSession("localtime"));
  const project = await session.post("/api/projects/createProject", {
    name: "Crumb & Co. Bakery",
    description: "A neighbourhood sourdough bakery baking naturally leavened bread every morning.",
  });
  projectId = project.body.result.project.projectId;
  const profileId = project.body.result.profile.profileId;
  const address = await session.request("PATCH", `/api/profiles/${profileId}`, {
    values: { address: "1 Mill Lane\nLeeds" },
  });
  expect(address.status).toBe(200);
  userId = JSON.parse(Buffer.from(session.cookies.get("crafter_at")!.split(".")[1]!, "base64url").toString()).sub;
  // The business is in London (as projects' ProfileUpdated leaves it in this copy).
  await deps.zones.remember(userId, projectId, "Europe/London");
  for (const [who, timeZone] of Object.entries(ZONES)) {
    const created = await session.post(`/api/contacts?projectId=${projectId}`, {
      email: `${who}@${domain}`,
      firstName: who,
      tags: ["local-time"],
      timeZone,
    });
    expect(created.status).toBe(201);
    const id = created.body.result.id as string;
    const subscribed = await session.request("PATCH", `/api/contacts/${id}?projectId=${projectId}`, {
      consent: "subscribed",
    });
    expect(subscribed.status).toBe(200);
  }
  const segment = await session.post(`/api/segments?projectId=${projectId}`, {
    name: "Local time",
    query: { combinator: "and", rules: [{ field: "tags", operator: "contains", value: "local-time" }] },
  });
  expect(segment.status).toBeLessThan(300);
  segmentId = segment.body.result.id;
});

afterAll(async () => {
  mailer?.close();
  await database?.drop();
});

const caller = () => ({
  userId,
  role: "user",
  token: undefined,
  signal: new AbortController().signal,
  service: undefined,
});

/** Messages Mailpit holds for each contact of this run. */
async function inbox(): Promise<Record<Who, number>> {
  const response = await fetch(`${mailpit}/api/v1/search?query=${encodeURIComponent(`to:"@${domain}"`)}&limit=50`);
  const { messages } = (await response.json()) as { messages: { To: { Address: string }[] }[] };
  const counts = Object.fromEntries(Object.keys(ZONES).map((who) => [who, 0])) as Record<Who, number>;
  for (const message of messages)
    for (const to of message.To)
      counts[to.Address.split("@")[0] as Who] = (counts[to.Address.split("@")[0] as Who] ?? 0) + 1;
  return counts;
}

/** The clock at `iso`, one scan and one round of every sending campaign, then Mailpit once the mail has landed. */
async function roundAt(iso: string, expected: Record<Who, number>): Promise<Record<Who, number>> {
  clock = new Date(iso);
  for (const id of await campaignsToDispatch(deps)) await dispatchCampaign(deps, id);
  let seen = await inbox();
  for (let i = 0; i < 40 && JSON.stringify(seen) !== JSON.stringify(expected); i++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    seen = await inbox();
  }
  return seen;
}

describe("a campaign at each contact's local time", () => {
  it("refuses the option with an A/B test and for Send now", async () => {
    clock = new Date("2026-03-27T12:00:00Z");
    const input = { name: "Mixed", segmentId: "s1", subject: "Hi", html: "<p>Hi</p>" };
    await expect(
      createCampaign(deps, caller(), {
        projectId,
        campaign: { ...input, sendTimeBy: "contact", abTest: { subjectB: "Hey", share: 20, winnerAfterMinutes: 60 } },
      }),
    ).rejects.toMatchObject({ code: "CR_ERR_BAD_REQUEST", fields: { sendTimeBy: expect.stringContaining("A/B") } });
    const ab = await createCampaign(deps, caller(), {
      projectId,
      campaign: { ...input, abTest: { subjectB: "Hey", share: 20, winnerAfterMinutes: 60 } },
    });
    await expect(
      updateCampaign(deps, caller(), {
        campaignId: ab._id,
        campaign: { sendTimeBy: "contact" },
        fields: ["sendTimeBy"],
      }),
    ).rejects.toMatchObject({ fields: { sendTimeBy: expect.stringContaining("A/B") } });
    const local = await createCampaign(deps, caller(), { projectId, campaign: { ...input, sendTimeBy: "contact" } });
    await expect(sendCampaign(deps, caller(), local._id)).rejects.toMatchObject({
      fields: { sendTimeBy: expect.stringContaining("scheduled") },
    });
    expect((await getCampaign(deps, caller(), local._id)).status).toBe("draft");
  });

  it("sends each contact at 09:00 on their own clock across London's clocks going forward, each once", async () => {
    // Friday 27 March 2026; the campaign is for 09:00 on Sunday 29 March, the day London goes to BST.
    clock = new Date("2026-03-27T12:00:00Z");
    const draft = await createCampaign(deps, caller(), {
      projectId,
      campaign: {
        name: "Sunday loaves",
        segmentId,
        subject: 'Sunday loaves, {{contact.firstName | "friend"}}',
        html: "<p>Fresh from the oven at nine.</p>",
        sendTimeBy: "contact",
      },
    });
    const scheduled = await scheduleCampaign(deps, caller(), {
      campaignId: draft._id,
      at: "",
      localTime: "2026-03-29T09:00",
    });
    // 09:00 BST is 08:00 UTC; the first zone to reach 09:00 (UTC+14) does so at 19:00 UTC the day before.
    expect(scheduled).toMatchObject({
      status: "scheduled",
      sendTimeBy: "contact",
      timeZone: "Europe/London",
      scheduledAt: new Date("2026-03-29T08:00:00Z"),
      startsAt: new Date("2026-03-28T19:00:00Z"),
    });
    // The calendar places it by CampaignScheduled: at the business's 09:00, on the business's Sunday.
    const doc = await deps.stores.campaigns.model.findById(draft._id).lean();
    const bytes = (payload: unknown) =>
      payload instanceof Uint8Array ? payload : new Uint8Array((payload as { buffer: Uint8Array }).buffer);
    expect((doc?.outbox ?? []).map((entry) => fromBinary(CampaignScheduledSchema, bytes(entry.payload)).at)).toEqual([
      "2026-03-29T08:00:00.000Z",
    ]);

    const none = { tokyo: 0, london: 0, nozone: 0, la: 0 };
    expect(await roundAt("2026-03-28T18:59:59Z", none)).toEqual(none);
    expect((await getCampaign(deps, caller(), draft._id)).status).toBe("scheduled");
    // Started, recipients taken, nobody's 09:00 yet (Tokyo is UTC+9: 00:00 UTC).
    expect(await roundAt("2026-03-28T23:59:59Z", none)).toEqual(none);
    const started = await getCampaign(deps, caller(), draft._id);
    expect(started).toMatchObject({ status: "sending", recipients: 4 });
    expect(started.release).toEqual({ released: 0, total: 4, nextAt: new Date("2026-03-29T00:00:00Z") });

    const tokyo = { ...none, tokyo: 1 };
    expect(await roundAt("2026-03-29T00:00:00Z", tokyo)).toEqual(tokyo);
    expect(await roundAt("2026-03-29T07:59:59Z", tokyo)).toEqual(tokyo);
    // London and the contact without a zone (the business's London) at 09:00 BST.
    const london = { ...tokyo, london: 1, nozone: 1 };
    expect(await roundAt("2026-03-29T08:00:00Z", london)).toEqual(london);
    const waiting = await getCampaign(deps, caller(), draft._id);
    expect(waiting).toMatchObject({ status: "sending", stats: { sent: 3 } });
    expect(waiting.release).toEqual({ released: 3, total: 4, nextAt: new Date("2026-03-29T16:00:00Z") });
    expect(await roundAt("2026-03-29T15:59:59Z", london)).toEqual(london);
    // Los Angeles has been on PDT since 8 March: 09:00 there is 16:00 UTC.
    const all = { tokyo: 1, london: 1, nozone: 1, la: 1 };
    expect(await roundAt("2026-03-29T16:00:00Z", all)).toEqual(all);
    const sent = await getCampaign(deps, caller(), draft._id);
    expect(sent).toMatchObject({ status: "sent", stats: { sent: 4 } });
    expect(sent.release).toEqual({ released: 4, total: 4, nextAt: null });
    // Another round sends nobody twice.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await roundAt("2026-03-29T17:00:00Z", all)).toEqual(all);

    const facts = await deps.stores.email.campaignFacts(draft._id, ["sent"]);
    const deliveries = await deps.stores.email.campaignDeliveries(draft._id);
    const sentAt = Object.fromEntries(
      deliveries.map((d) => [d.firstName, facts.find((f) => f.deliveryId === d._id)?.at.toISOString()]),
    );
    expect(sentAt).toEqual({
      tokyo: "2026-03-29T00:00:00.000Z",
      london: "2026-03-29T08:00:00.000Z",
      nozone: "2026-03-29T08:00:00.000Z",
      la: "2026-03-29T16:00:00.000Z",
    });
  });
});
