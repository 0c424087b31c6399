import { appError, badRequest, type Caller } from "@crafter/kit";
import type { NotificationsDeps } from "../deps";
import { cleanNotification, type NotificationLevel, notificationIdOf, pageOf, totalPages } from "../domain/inbox";
import type { StoredNotification } from "../store/inbox.repository";

export type NotifyDeps = Pick<NotificationsDeps, "stores" | "calendar" | "now">;

/** A notification as the RPC and REST layers show it. */
export interface NotificationView {
  id: string;
  level: NotificationLevel;
  title: string;
  body: string;
  link: string;
  read: boolean;
  createdAt: Date;
}

function view(doc: StoredNotification): NotificationView {
  return {
    id: doc._id,
    level: doc.level,
    title: doc.title,
    body: doc.body,
    link: doc.link,
    read: doc.read,
    createdAt: doc.createdAt,
  };
}

/**
 * Creates an in-app notification for a user and publishes NotificationCreated (through the
 * outbox, in the same insert). Idempotent by `key` per user: a second call with the same key
 * creates nothing, publishes nothing and answers the first notification's id. Called in-process
 * by the service's areas (calendar, campaigns, automations' notify_owner).
 * @param input.level info | warning | success | error; `title` (≤ 200 characters, required),
 *   `body` (≤ 2000), `link` (an app path such as "/app/calendar"; anything else is dropped),
 *   `key` (1–300 characters, e.g. "calendar-due:<user>:2026-11-22").
 * @returns the notification's id (the same for every call with one key).
 * @throws CR_ERR_BAD_REQUEST for an unknown level, an empty title or a missing key.
 */
export async function notify(
  deps: NotifyDeps,
  input: { userId: string; level: NotificationLevel; title: string; body: string; link?: string; key: string },
): Promise<{ notificationId: string }> {
  const clean = cleanNotification(input);
  if (!clean.ok) throw badRequest({ notification: clean.error });
  if (input.userId === "") throw badRequest({ userId: "userId is required" });
  const notificationId = notificationIdOf(input.userId, input.key);
  const event = deps.calendar.inboxEvents.created({
    userId: input.userId,
    notificationId,
    level: clean.level,
    ...clean.text,
  });
  const inserted = await deps.stores.inbox.insert(
    {
      _id: notificationId,
      userId: input.userId,
      key: input.key,
      level: clean.level,
      ...clean.text,
      read: false,
      readAt: null,
      createdAt: deps.now(),
    },
    event,
  );
  if (inserted) deps.calendar.kick();
  return { notificationId };
}

/** One page of the caller's notifications, newest first, and the caller's unread count. */
export async function listNotifications(
  deps: Pick<NotificationsDeps, "stores">,
  caller: Caller,
  input: { page: number; pageSize: number; unreadOnly: boolean },
): Promise<{
  notifications: NotificationView[];
  count: number;
  currentPage: number;
  totalPages: number;
  unread: number;
}> {
  const { page, pageSize, skip } = pageOf(input.page, input.pageSize);
  const [{ items, count }, unread] = await Promise.all([
    deps.stores.inbox.page(caller.userId, { unreadOnly: input.unreadOnly, skip, limit: pageSize }),
    deps.stores.inbox.unreadCount(caller.userId),
  ]);
  return { notifications: items.map(view), count, currentPage: page, totalPages: totalPages(count, pageSize), unread };
}

/**
 * Marks one of the caller's notifications read (again: no change).
 * @throws NOT_FOUND when it is not the caller's.
 */
export async function markNotificationRead(
  deps: Pick<NotificationsDeps, "stores" | "now">,
  caller: Caller,
  input: { notificationId: string },
): Promise<NotificationView> {
  const found = await deps.stores.inbox.get(caller.userId, input.notificationId.slice(0, 64));
  if (!found) throw appError("NOT_FOUND", "No such notification.");
  if (found.read) return view(found);
  const at = deps.now();
  await deps.stores.inbox.markRead(caller.userId, found._id, at);
  return view({ ...found, read: true, readAt: at });
}

/** Marks every notification of the caller read. @returns how many were unread. */
export async function markAllNotificationsRead(
  deps: Pick<NotificationsDeps, "stores" | "now">,
  caller: Caller,
): Promise<{ marked: number }> {
  return { marked: await deps.stores.inbox.markAllRead(caller.userId, deps.now()) };
}
