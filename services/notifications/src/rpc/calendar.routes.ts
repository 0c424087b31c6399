import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { CalendarService, InboxService } from "@crafter/proto/crafter/notifications/v1/calendar_pb";
import {
  type Deps as CalendarDeps,
  type CalendarEntryView,
  listCalendarEntries,
  listCalendarPage,
  rescheduleEntry,
  scheduleCraft,
  unscheduleEntry,
} from "../usecases/calendar";
import {
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  type NotificationView,
  type NotifyDeps,
} from "../usecases/inbox";

const toEntry = (e: CalendarEntryView) => ({ ...e, dateTime: timestampFromDate(e.dateTime) });
const toNotification = (n: NotificationView) => ({ ...n, createdAt: timestampFromDate(n.createdAt) });

/** crafter.notifications.v1.CalendarService and InboxService: thin handlers over the use cases. */
export function calendarRoutes(deps: CalendarDeps & NotifyDeps): (router: ConnectRouter) => void {
  return (router) => {
    router.service(CalendarService, {
      async listCalendarEntries(req, ctx) {
        const entries = await listCalendarEntries(deps, callerOf(ctx), {
          projectId: req.projectId,
          from: req.from && timestampDate(req.from),
          to: req.to && timestampDate(req.to),
        });
        return { entries: entries.map(toEntry) };
      },
      async listCalendarPage(req, ctx) {
        const page = await listCalendarPage(deps, callerOf(ctx), req);
        return { ...page, entries: page.entries.map(toEntry) };
      },
      async scheduleCraft(req, ctx) {
        const entry = await scheduleCraft(deps, callerOf(ctx), {
          projectId: req.projectId,
          craftId: req.craftId,
          dateTime: req.dateTime && timestampDate(req.dateTime),
          type: req.type,
        });
        return { entry: toEntry(entry) };
      },
      async rescheduleEntry(req, ctx) {
        const entry = await rescheduleEntry(deps, callerOf(ctx), {
          projectId: req.projectId,
          entryId: req.entryId,
          dateTime: req.dateTime && timestampDate(req.dateTime),
        });
        return { entry: toEntry(entry) };
      },
      async unscheduleEntry(req, ctx) {
        await unscheduleEntry(deps, callerOf(ctx), req);
        return {};
      },
    });
    router.service(InboxService, {
      async listNotifications(req, ctx) {
        const page = await listNotifications(deps, callerOf(ctx), {
          page: req.page,
          pageSize: req.pageSize,
          unreadOnly: req.unreadOnly,
        });
        return { ...page, notifications: page.notifications.map(toNotification) };
      },
      async markNotificationRead(req, ctx) {
        return { notification: toNotification(await markNotificationRead(deps, callerOf(ctx), req)) };
      },
      async markAllNotificationsRead(_req, ctx) {
        return markAllNotificationsRead(deps, callerOf(ctx));
      },
    });
  };
}
