// The content calendar and the bell through the gateway and the real notifications and workflows
// services (test stack of scripts/stack.mjs), with the email area's campaign events published on
// Kafka as email-api publishes them.
import { randomUUID } from "node:crypto";
import { create, toBinary } from "@bufbuild/protobuf";
import { createKafka, createLogger, createPublisher, type Publisher, TOPICS, topicName } from "@crafter/kit";
import { type GatewaySession, stackEnv, verifiedSession } from "@crafter/kit/testing";
import { CampaignFinishedSchema, CampaignScheduledSchema } from "@crafter/proto/crafter/events/v1/email_pb";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";

jest.setTimeout(120_000);

const env = stackEnv();
let owner: GatewaySession;
let other: GatewaySession;
let ownerId: string;
let ownerProjectId: string;
let publisher: Publisher;

/** A verified user with a project; the user id is the access token's `sub`. */
async function userWithProject(
  prefix: string,
): Promise<{ session: GatewaySession; userId: string; projectId: string }> {
  const { session } = await verifiedSession(prefix);
  const created = await session.post("/api/projects/createProject", {
    name: "Crumb & Co. Bakery",
    description: "A neighbourhood sourdough bakery baking naturally leavened bread every morning.",
  });
  expect(created.status).toBe(201);
  const token = session.cookies.get("crafter_at") ?? "";
  const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
  return { session, userId: claims.userId ?? claims.sub, projectId: created.body.result.project.projectId };
}

async function craft(session: GatewaySession, workflowName: string): Promise<string> {
  const created = await session.post("/api/workflowsV2", { workflowName });
  expect(created.status).toBe(201);
  return created.body.result.craftId;
}

const patch = (s: GatewaySession, path: string, body: unknown) => s.request("PATCH", path, body);
const del = (s: GatewaySession, path: string) => s.request("DELETE", path, {});
const inDays = (days: number, hour = 10) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
};

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 30_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

beforeAll(async () => {
  const [a, b] = await Promise.all([userWithProject("calendar-owner"), userWithProject("calendar-other")]);
  owner = a.session;
  ownerId = a.userId;
  ownerProjectId = a.projectId;
  other = b.session;
  const kafka = createKafka(env.KAFKA_BROKERS ?? "127.0.0.1:9092", "calendar-test", createLogger("t", "silent"));
  publisher = await createPublisher(kafka);
});

afterAll(async () => {
  await publisher?.disconnect();
});

describe("scheduling crafts", () => {
  let blogId: string;
  let entryId: string;

  it("schedules a craft with the type of its workflow and shows it in the range", async () => {
    blogId = await craft(owner, "BlogWriter");
    const at = inDays(3);
    const scheduled = await owner.post("/api/calendar", { craftId: blogId, dateTime: at });
    expect(scheduled.status).toBe(201);
    expect(scheduled.body.result).toMatchObject({
      type: "blog",
      status: "scheduled",
      dateTime: at,
      craftId: blogId,
      workflowName: "BlogWriter",
      link: `/app/crafts/BlogWriter?craftId=${blogId}`,
    });
    entryId = scheduled.body.result.id;

    const range = await owner.get(`/api/calendar?from=${inDays(0, 0)}&to=${inDays(7, 0)}`);
    expect(range.status).toBe(200);
    expect(range.body.result.map((e: { id: string }) => e.id)).toContain(entryId);
    const outside = await owner.get(`/api/calendar?from=${inDays(4, 0)}&to=${inDays(7, 0)}`);
    expect(outside.body.result.map((e: { id: string }) => e.id)).not.toContain(entryId);
  });

  it("moves it by drag, and scheduling the craft again moves the same entry", async () => {
    const moved = await patch(owner, `/api/calendar/${entryId}`, { dateTime: inDays(5) });
    expect(moved.status).toBe(200);
    expect(moved.body.result).toMatchObject({ id: entryId, dateTime: inDays(5), status: "scheduled" });
    const again = await owner.post("/api/calendar", { craftId: blogId, dateTime: inDays(6) });
    expect(again.body.result.id).toBe(entryId);
    const list = await owner.get("/api/calendar/list?type=blog");
    expect(list.status).toBe(200);
    expect(list.body.result.result).toHaveLength(1);
    expect(list.body.result.result[0]).toMatchObject({ id: entryId, dateTime: inDays(6) });
    expect(list.body.result.meta).toEqual({ count: 1, currentPage: 1, totalPages: 1 });
  });

  it("keeps users apart and answers bad input with 400/404, never 500", async () => {
    expect((await other.post("/api/calendar", { craftId: blogId, dateTime: inDays(1) })).status).toBe(404);
    expect((await patch(other, `/api/calendar/${entryId}`, { dateTime: inDays(1) })).status).toBe(404);
    expect((await del(other, `/api/calendar/${entryId}`)).status).toBe(404);
    const bad = await owner.post("/api/calendar", { craftId: blogId, dateTime: "tomorrow-ish" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.dateTime).toBe("dateTime must be a date");
    const long = await owner.get(`/api/calendar?from=${inDays(0)}&to=${inDays(70)}`);
    expect(long.status).toBe(400);
    expect(long.body.error.fields.to).toBe("The range is at most 62 days");
    expect((await owner.get("/api/calendar/list?status=lost")).status).toBe(400);
  });

  it("unschedules", async () => {
    expect((await del(owner, `/api/calendar/${entryId}`)).status).toBe(200);
    expect((await owner.get("/api/calendar/list?type=blog")).body.result.meta.count).toBe(0);
  });
});

describe("due posts and the bell", () => {
  it("turns a post whose time has passed due, with one notification for the day", async () => {
    const social = await craft(owner, "SocialMediaPostWriter");
    const blog = await craft(owner, "BlogWriter");
    const past = new Date(Date.now() - 60_000).toISOString();
    const first = await owner.post("/api/calendar", { craftId: social, dateTime: past });
    expect(first.body.result).toMatchObject({ type: "social", status: "due" });
    const second = await owner.post("/api/calendar", { craftId: blog, dateTime: past });
    expect(second.body.result.status).toBe("due");

    const bell = await owner.get("/api/notifications");
    expect(bell.status).toBe(200);
    const due = bell.body.result.result.filter((n: { title: string }) => /due today$/.test(n.title));
    // One per user per day, however many posts turned due.
    expect(due).toHaveLength(1);
    expect(due[0]).toMatchObject({ level: "info", read: false, title: "1 post is due today" });
    expect(due[0].link).toMatch(/^\/app\/calendar\?date=\d{4}-\d{2}-\d{2}$/);
    expect(bell.body.result.meta.unread).toBeGreaterThanOrEqual(1);

    const read = await owner.post(`/api/notifications/${due[0].id}/read`, {});
    expect(read.status).toBe(200);
    expect(read.body.result.read).toBe(true);
    expect((await other.post(`/api/notifications/${due[0].id}/read`, {})).status).toBe(404);
    expect((await owner.get("/api/notifications?unread=true")).body.result.result).toHaveLength(0);
  });
});

describe("campaigns from the email area", () => {
  it("places a scheduled campaign, moves it, and marks it sent with 'Campaign X finished'", async () => {
    const userId = ownerId;
    const projectId = ownerProjectId;
    expect(userId).toBeTruthy();
    const campaignId = randomUUID();
    const topic = topicName(env.CRAFTER_NAMESPACE ?? "crafter_calendar", TOPICS.notificationsEmail);
    const send = (type: string, bytes: Uint8Array) =>
      publisher.publish(topic, campaignId, Buffer.from(bytes), {
        ce_id: randomUUID(),
        ce_type: type,
        ce_source: "email-api-test",
        ce_time: new Date().toISOString(),
      });
    const at = inDays(2, 9);
    await send(
      CampaignScheduledSchema.typeName,
      toBinary(
        CampaignScheduledSchema,
        create(CampaignScheduledSchema, { userId, projectId, campaignId, name: "Autumn loaves", at }),
      ),
    );
    const range = () => owner.get(`/api/calendar?from=${inDays(0, 0)}&to=${inDays(4, 0)}`);
    const placed = await eventually(range, (r) =>
      r.body.result.some((e: { campaignId?: string }) => e.campaignId === campaignId),
    );
    const entry = placed.body.result.find((e: { campaignId?: string }) => e.campaignId === campaignId);
    expect(entry).toMatchObject({
      type: "email",
      status: "scheduled",
      title: "Autumn loaves",
      dateTime: at,
      link: `/app/email/campaigns/${campaignId}`,
    });

    await send(
      CampaignFinishedSchema.typeName,
      toBinary(
        CampaignFinishedSchema,
        create(CampaignFinishedSchema, {
          userId,
          projectId,
          campaignId,
          name: "Autumn loaves",
          sent: 12,
          failed: 0,
          skipped: 1,
        }),
      ),
    );
    const bell = await eventually(
      () => owner.get("/api/notifications"),
      (r) => r.body.result.result.some((n: { title: string }) => n.title === "Campaign Autumn loaves finished"),
    );
    const finished = bell.body.result.result.find(
      (n: { title: string }) => n.title === "Campaign Autumn loaves finished",
    );
    expect(finished).toMatchObject({ level: "success", body: "12 sent, 0 failed, 1 skipped.", read: false });
    const after = await range();
    expect(after.body.result.find((e: { campaignId?: string }) => e.campaignId === campaignId).status).toBe("sent");

    const all = await owner.post("/api/notifications/read-all", {});
    expect(all.status).toBe(200);
    expect((await owner.get("/api/notifications")).body.result.meta.unread).toBe(0);
  });
});
