import { fromBinary } from "@bufbuild/protobuf";
import { createLogger } from "@crafter/kit";
import { stackEnv, stackServiceCredentials, throwawayDatabase } from "@crafter/kit/testing";
import { CampaignScheduledSchema } from "@crafter/proto/crafter/events/v1/email_pb";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { businessZones } from "../src/clients/business-zones";
import { workflowsEmailCrafts } from "../src/clients/crafts";
import { billingUsage, contactsLinks, contactsPort, fixedProvider, projectsBusiness } from "../src/clients/email-ports";
import type { NotificationsDeps } from "../src/deps";
import { EmailEvents } from "../src/events/publishers";
import { createSmtpMailer, type Mailer } from "../src/mail/mailer";
import { smtpProvider, Throttle } from "../src/mail/providers";
import { createStores } from "../src/store";
import { createCampaign, scheduleCampaign } from "../src/usecases/campaigns";
import { campaignsForCalendar, rescheduleCampaign } from "../src/usecases/campaigns-calendar";

// The calendar's port into campaigns (docs/email-contract.md), on the real database server.
const env = stackEnv();
let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let mailer: Mailer;
let deps: Pick<NotificationsDeps, "stores" | "email" | "publicOrigin" | "logger" | "now" | "zones">;

beforeAll(async () => {
  database = await throwawayDatabase("notifications_calendar");
  mailer = createSmtpMailer({ url: env.SMTP_URL ?? "smtp://127.0.0.1:1025", from: "a@b.test", timeoutMs: 5000 });
  const credentials = stackServiceCredentials("notifications");
  deps = {
    stores: await createStores(database.connection),
    publicOrigin: "http://localhost:8080",
    logger: createLogger("calendar-test", "silent"),
    now: () => new Date(),
    // The business zones as projects' events leave them, without a projects service to ask.
    zones: businessZones(database.connection),
    email: {
      contacts: contactsPort(env.CONTACTS_URL ?? "http://127.0.0.1:1", 5000, credentials),
      links: contactsLinks(env.CONTACTS_URL!, 10_000, credentials),
      usage: billingUsage(env.BILLING_URL ?? "http://127.0.0.1:1", 5000, credentials),
      business: projectsBusiness(env.PROJECTS_URL ?? "http://127.0.0.1:1", 5000, database.connection),
      crafts: workflowsEmailCrafts(env.WORKFLOWS_URL ?? "http://127.0.0.1:1", 5000),
      providers: fixedProvider(smtpProvider(mailer), new Throttle(10)),
      events: new EmailEvents("inttest"),
      kick: () => {},
      trackingSecret: "c".repeat(40),
      retry: { attempts: 1, baseMs: 10 },
      concurrency: 1,
      attemptLeaseMs: 1000,
      limitRetryMs: 1000,
    },
  };
});

afterAll(async () => {
  mailer?.close();
  await database?.drop();
});

const caller = (userId: string) => ({
  userId,
  role: "user",
  token: undefined,
  signal: new AbortController().signal,
  service: undefined,
});

describe("campaignsForCalendar and rescheduleCampaign", () => {
  it("reschedules and unschedules a campaign with CampaignScheduled, and reports status and figures", async () => {
    // The business profile as last read with the user's token (a send without one uses it): it has an address.
    await database.connection
      .collection("email_senders")
      .insertOne({ _id: "u1:p1" as never, name: "Crumb & Co.", address: "1 Mill Lane", at: new Date() });
    const draft = await createCampaign(deps, caller("u1"), {
      projectId: "p1",
      campaign: { name: "Launch", segmentId: "s1", subject: "Hi", html: "<p>Hi</p>" },
    });
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = await rescheduleCampaign(deps, { userId: "u1", campaignId: draft._id, at });
    expect(scheduled).toMatchObject({ status: "scheduled", scheduledAt: new Date(at) });
    await expect(rescheduleCampaign(deps, { userId: "u2", campaignId: draft._id, at })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      rescheduleCampaign(deps, { userId: "u1", campaignId: draft._id, at: "2001-01-01T00:00:00Z" }),
    ).rejects.toMatchObject({ code: "CR_ERR_BAD_REQUEST" });

    const map = await campaignsForCalendar(deps, { userId: "u1", campaignIds: [draft._id, "missing"] });
    expect([...map.keys()]).toEqual([draft._id]);
    expect(map.get(draft._id)).toMatchObject({ status: "scheduled", stats: { sent: 0, openRate: 0 } });
    expect((await campaignsForCalendar(deps, { userId: "u2", campaignIds: [draft._id] })).size).toBe(0);

    await rescheduleCampaign(deps, { userId: "u1", campaignId: draft._id, at: "" });
    const doc = await deps.stores.campaigns.model.findById(draft._id).lean();
    expect(doc?.status).toBe("draft");
    // Lean documents hold BSON Binary payloads (bytes in `.buffer`).
    const bytes = (payload: unknown) =>
      payload instanceof Uint8Array ? payload : new Uint8Array((payload as { buffer: Uint8Array }).buffer);
    const events = (doc?.outbox ?? []).map((entry) => fromBinary(CampaignScheduledSchema, bytes(entry.payload)));
    expect(events.map((e) => [e.campaignId, e.name, e.at])).toEqual([
      [draft._id, "Launch", at],
      [draft._id, "Launch", ""],
    ]);
  });

  it("schedules at a time on the business's wall clock, in its time zone, across the clocks going forward", async () => {
    // A Los Angeles business; the clocks go forward on Sunday 14 March 2027.
    await deps.zones.remember("u1", "la", "America/Los_Angeles");
    await database.connection
      .collection("email_senders")
      .insertOne({ _id: "u1:la" as never, name: "Pacific Bikes", address: "1 Ocean Ave", at: new Date() });
    const draft = await createCampaign(deps, caller("u1"), {
      projectId: "la",
      campaign: { name: "Sunday ride", segmentId: "s1", subject: "Ride", html: "<p>Ride</p>" },
    });
    const at = async (localTime: string) =>
      (await scheduleCampaign(deps, caller("u1"), { campaignId: draft._id, at: "", localTime })).scheduledAt;
    // 09:00 PST on the Saturday is 17:00 UTC; 09:00 PDT on the Sunday is 16:00 UTC.
    expect(await at("2027-03-13T09:00")).toEqual(new Date("2027-03-13T17:00:00Z"));
    expect(await at("2027-03-14T09:00")).toEqual(new Date("2027-03-14T16:00:00Z"));
    // 02:30 does not exist that Sunday: it is 03:30 PDT.
    expect(await at("2027-03-14T02:30")).toEqual(new Date("2027-03-14T10:30:00Z"));
    // A project without a zone reads as UTC.
    const utc = await createCampaign(deps, caller("u1"), {
      projectId: "p1",
      campaign: { name: "Plain", segmentId: "s1", subject: "Hi", html: "<p>Hi</p>" },
    });
    await deps.zones.remember("u1", "p1", "");
    const plain = await scheduleCampaign(deps, caller("u1"), {
      campaignId: utc._id,
      at: "",
      localTime: "2027-03-14T09:00",
    });
    expect(plain.scheduledAt).toEqual(new Date("2027-03-14T09:00:00Z"));
    for (const localTime of ["2027-02-30T09:00", "next Sunday", "2001-01-01T09:00"]) {
      await expect(
        scheduleCampaign(deps, caller("u1"), { campaignId: draft._id, at: "", localTime }),
      ).rejects.toMatchObject({ code: "CR_ERR_BAD_REQUEST" });
    }
  });
});
