import { createLogger } from "@crafter/kit";
import { throwawayDatabase } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import type { NotificationsDeps } from "../src/deps";
import { dayOf } from "../src/domain/calendar-entries";
import { unwiredCampaigns } from "../src/domain/calendar-ports";
import { InboxEvents } from "../src/events/publishers";
import { createStores, type NotificationsStores } from "../src/store";
import { calendarEntryIdOf } from "../src/store/calendar.repository";
import { scanDue } from "../src/usecases/calendar-due";

// The due scan against the real MongoDB-compatible server, in a throwaway database, with the clock
// set by the test: each "process" is a fresh deps over the same database, as after a restart.
// Seconds normally; minutes when the shared machine is loaded.
jest.setTimeout(60_000);

let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let stores: NotificationsStores;

const processAt = (at: string): Pick<NotificationsDeps, "stores" | "calendar" | "now" | "logger"> => ({
  stores,
  now: () => new Date(at),
  logger: createLogger("due-test", "silent"),
  calendar: {
    inboxEvents: new InboxEvents("crafter_test"),
    kick: () => {},
    crafts: { craft: async () => null },
    campaigns: unwiredCampaigns,
  },
});

async function post(userId: string, craftId: string, at: string, type: "social" | "blog" | "email" = "social") {
  const dateTime = new Date(at);
  await stores.calendar.put(calendarEntryIdOf("craft", userId, craftId), {
    userId,
    projectId: "p1",
    source: "craft",
    craftId,
    campaignId: "",
    title: craftId,
    type,
    status: "scheduled",
    dateTime,
    day: dayOf(dateTime),
    pending: type !== "email",
    workflowName: "SocialMediaPostWriter",
    link: "/app/crafts/x",
  });
}

const statusOf = async (userId: string, craftId: string) =>
  (await stores.calendar.byId(calendarEntryIdOf("craft", userId, craftId)))?.status;
const bell = (userId: string) => stores.inbox.model.find({ userId }).lean();

beforeAll(async () => {
  database = await throwawayDatabase("notifications-due");
  stores = await createStores(database.connection);
}, 60_000);

afterAll(async () => {
  await database?.drop();
});

describe("the due scan", () => {
  it("turns due what has come, notifies each user once a day, and catches up after a restart", async () => {
    await post("u1", "a", "2026-03-10T09:00:00Z");
    await post("u1", "b", "2026-03-10T09:00:00Z", "blog");
    await post("u1", "c", "2026-03-10T17:00:00Z");
    await post("u1", "mail", "2026-03-10T08:00:00Z", "email");
    await post("u2", "d", "2026-03-11T08:00:00Z");

    // First pass before anything is due: nothing happens, the checkpoint is set.
    expect(await scanDue(processAt("2026-03-10T08:30:00Z"))).toBe(0);

    // 09:05: a and b turn due, and u1 is told about the day's three posts once.
    expect(await scanDue(processAt("2026-03-10T09:05:00Z"))).toBe(2);
    expect(await statusOf("u1", "a")).toBe("due");
    expect(await statusOf("u1", "c")).toBe("scheduled");
    // Emails are sent by their campaign, never marked due.
    expect(await statusOf("u1", "mail")).toBe("scheduled");
    const told = await bell("u1");
    expect(told.map((n) => n.title)).toEqual(["3 posts are due today"]);
    expect(told[0]!.link).toBe("/app/calendar?date=2026-03-10");

    // The same pass again (a crash before the checkpoint, or a second pod) changes nothing.
    expect(await scanDue(processAt("2026-03-10T09:05:00Z"))).toBe(0);

    // The service is down from 10:00 until the next morning; a fresh process catches up
    // yesterday's 17:00 post and today's u2 post, each user notified once per day.
    expect(await scanDue(processAt("2026-03-11T08:01:00Z"))).toBe(2);
    expect(await statusOf("u1", "c")).toBe("due");
    expect(await statusOf("u2", "d")).toBe("due");
    expect((await bell("u1")).map((n) => n.title)).toEqual(["3 posts are due today"]);
    expect((await bell("u2")).map((n) => n.title)).toEqual(["1 post is due today"]);
    expect(await stores.calendar.scanFrom()).toBe("2026-03-11");
  });
});
