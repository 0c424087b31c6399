import { fromBinary } from "@bufbuild/protobuf";
import { type Caller, createLogger } from "@crafter/kit";
import { throwawayDatabase } from "@crafter/kit/testing";
import { NotificationCreatedSchema } from "@crafter/proto/crafter/events/v1/inbox_pb";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import type { NotificationsDeps } from "../src/deps";
import { unwiredCampaigns } from "../src/domain/calendar-ports";
import { InboxEvents } from "../src/events/publishers";
import { createStores, type NotificationsStores } from "../src/store";
import { listNotifications, markAllNotificationsRead, markNotificationRead, notify } from "../src/usecases/inbox";

// notify and the bell's reads against the real MongoDB-compatible server, in a throwaway database.
// Seconds normally; minutes when the shared machine is loaded.
jest.setTimeout(60_000);

let database: Awaited<ReturnType<typeof throwawayDatabase>>;
let stores: NotificationsStores;
let kicks = 0;
let deps: Pick<NotificationsDeps, "stores" | "calendar" | "now" | "logger">;

const caller = (userId: string): Caller => ({
  userId,
  role: "owner",
  token: undefined,
  signal: new AbortController().signal,
  service: undefined,
});

beforeAll(async () => {
  database = await throwawayDatabase("notifications-inbox");
  stores = await createStores(database.connection);
  deps = {
    stores,
    now: () => new Date(),
    logger: createLogger("inbox-test", "silent"),
    calendar: {
      inboxEvents: new InboxEvents("crafter_test"),
      kick: () => {
        kicks++;
      },
      crafts: { craft: async () => null },
      campaigns: unwiredCampaigns,
    },
  };
}, 60_000);

afterAll(async () => {
  await database?.drop();
});

describe("notify", () => {
  it("creates one notification per key, with its NotificationCreated in the outbox, however often it is called", async () => {
    const input = {
      userId: "user-a",
      level: "success" as const,
      title: "Campaign Spring finished",
      body: "10 sent",
      link: "/app/email/campaigns/c1",
      key: "campaign-finished:c1",
    };
    const before = kicks;
    const results = await Promise.all(Array.from({ length: 8 }, () => notify(deps, input)));
    expect(new Set(results.map((r) => r.notificationId)).size).toBe(1);
    expect(await stores.inbox.model.countDocuments({ userId: "user-a" })).toBe(1);
    expect(kicks - before).toBe(1);

    const doc = await stores.inbox.model.findById(results[0]!.notificationId).lean();
    expect(doc?.outbox).toHaveLength(1);
    const entry = doc!.outbox[0]!;
    expect(entry.topic).toBe("crafter_test.notifications.inbox.v1");
    expect(entry.key).toBe("user-a");
    const payload = Buffer.isBuffer(entry.payload)
      ? entry.payload
      : Buffer.from((entry.payload as unknown as { buffer: Uint8Array }).buffer);
    expect(fromBinary(NotificationCreatedSchema, payload)).toMatchObject({
      userId: "user-a",
      notificationId: results[0]!.notificationId,
      level: "success",
      title: "Campaign Spring finished",
      link: "/app/email/campaigns/c1",
    });
  });

  it("keeps one user's key apart from another user's", async () => {
    const a = await notify(deps, { userId: "user-b", level: "info", title: "Hi", body: "", key: "same" });
    const b = await notify(deps, { userId: "user-c", level: "info", title: "Hi", body: "", key: "same" });
    expect(a.notificationId).not.toBe(b.notificationId);
  });

  it("refuses an empty title", async () => {
    await expect(
      notify(deps, { userId: "user-a", level: "info", title: " ", body: "", key: "x" }),
    ).rejects.toMatchObject({ code: "CR_ERR_BAD_REQUEST" });
  });
});

describe("the bell's reads", () => {
  const user = "user-bell";
  const ids: string[] = [];

  beforeAll(async () => {
    for (const n of [1, 2, 3]) {
      const at = new Date(Date.parse("2026-11-20T10:00:00Z") + n * 60_000);
      const made = await notify(
        { ...deps, now: () => at },
        { userId: user, level: "info", title: `Note ${n}`, body: "", key: `bell-${n}` },
      );
      ids.push(made.notificationId);
    }
  });

  it("lists newest first with the unread count, and only unread ones on request", async () => {
    const page = await listNotifications(deps, caller(user), { page: 1, pageSize: 2, unreadOnly: false });
    expect(page.notifications.map((n) => n.title)).toEqual(["Note 3", "Note 2"]);
    expect(page).toMatchObject({ count: 3, currentPage: 1, totalPages: 2, unread: 3 });
  });

  it("marks one read (twice is the same), and refuses another user's", async () => {
    const read = await markNotificationRead(deps, caller(user), { notificationId: ids[1]! });
    expect(read.read).toBe(true);
    expect((await markNotificationRead(deps, caller(user), { notificationId: ids[1]! })).read).toBe(true);
    await expect(markNotificationRead(deps, caller("someone-else"), { notificationId: ids[0]! })).rejects.toMatchObject(
      {
        code: "NOT_FOUND",
      },
    );
    const unread = await listNotifications(deps, caller(user), { page: 1, pageSize: 20, unreadOnly: true });
    expect(unread.notifications.map((n) => n.title)).toEqual(["Note 3", "Note 1"]);
    expect(unread.unread).toBe(2);
  });

  it("marks all read", async () => {
    expect(await markAllNotificationsRead(deps, caller(user))).toEqual({ marked: 2 });
    const page = await listNotifications(deps, caller(user), { page: 1, pageSize: 20, unreadOnly: false });
    expect(page.unread).toBe(0);
    expect(page.notifications.every((n) => n.read)).toBe(true);
  });
});
