import { createLogger } from "@crafter/kit";
import { throwawayDatabase } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import { businessZones } from "../src/clients/business-zones";
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
let zones: NotificationsDeps["zones"];

const processAt = (at: string): Pick<NotificationsDeps, "stores" | "calendar" | "now" | "logger" | "zones"> => ({
  stores,
  zones,
  now: () => new Date(at),
  logger: createLogger("due-test", "silent"),
  calendar: {
    inboxEvents: new InboxEvents("crafter_test"),
    kick: () => {},
    crafts: { craft: async () => null },
    campaigns: unwiredCampaigns,
  },
});

async function post(
  userId: string,
  craftId: string,
  at: string,
  type: "social" | "blog" | "email" = "social",
  projectId = "p1",
) {
  const dateTime = new Date(at);
  await stores.calendar.put(calendarEntryIdOf("craft", userId, craftId), {
    userId,
    projectId,
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
  // The business zones as the projects events leave them (p1 has none: UTC).
  zones = businessZones(database.connection);
  await zones.remember("u3", "leeds", "Europe/London");
  await zones.remember("u3", "la", "America/Los_Angeles");
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

  it("counts 'due today' in the business's time zone: 23:30 in Los Angeles is that local day", async () => {
    // 23:30 PDT on Sunday 8 March 2026 (the clocks went forward that morning) is 06:30 UTC on the 9th;
    // 10:00 PDT the same day is another post of that local day, a UTC day earlier.
    await post("u3", "late", "2026-03-09T06:30:00Z", "social", "la");
    await post("u3", "morning", "2026-03-08T17:00:00Z", "blog", "la");
    // 00:30 BST on 30 March in Leeds is 23:30 UTC on the 29th: Leeds's 30 March.
    await post("u3", "leeds", "2026-03-29T23:30:00Z", "social", "leeds");

    expect(await scanDue(processAt("2026-03-08T17:05:00Z"))).toBe(1);
    expect(await scanDue(processAt("2026-03-09T06:35:00Z"))).toBe(1);
    const told = await bell("u3");
    // One notification for the local 8 March, counting both of its posts, linking to that day.
    expect(told.map((n) => [n.title, n.link])).toEqual([["2 posts are due today", "/app/calendar?date=2026-03-08"]]);
    expect(told[0]!.body).toBe("Scheduled for 2026-03-08. Publish them, then open the calendar to see what is next.");

    expect(await scanDue(processAt("2026-03-29T23:35:00Z"))).toBe(1);
    expect((await bell("u3")).map((n) => n.link)).toContain("/app/calendar?date=2026-03-30");
  });
});
