import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { pageMeta, pageMetaOf, paging } from "../http/rest-bindings";
import type { RouteDeps } from "./deps";
import { notificationSchema, toNotificationJson } from "./gen/notifications.v1.calendar";

/**
 * GET /api/notifications: the bell's page (docs/email-contract.md "Inbox"). Marking read is generated
 * from calendar.proto's InboxService (routes/gen).
 */
export function inboxRoutes({ clients }: RouteDeps): RouteDef[] {
  const { inbox } = clients;
  const N = "/api/notifications";
  return [
    defineRoute({
      method: "get",
      path: N,
      tag: "notifications",
      summary: "The caller's in-app notifications, newest first, with the unread count",
      auth: "session",
      query: z.object({
        ...paging,
        unread: z
          .enum(["true", "false"], { error: "unread is true or false" })
          .optional()
          .meta({ description: "true: only unread ones." }),
      }),
      response: z.object({
        result: z.array(notificationSchema),
        meta: pageMeta.extend({ unread: z.number() }),
      }),
      handler: async ({ query, as }) => {
        const page = await inbox.listNotifications(
          { page: query.page, pageSize: query.pageSize, unreadOnly: query.unread === "true" },
          as,
        );
        return {
          result: page.notifications.map(toNotificationJson),
          meta: { ...pageMetaOf(page), unread: page.unread },
        };
      },
    }),
  ];
}
