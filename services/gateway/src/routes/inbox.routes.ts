import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import type { RouteDeps } from "./deps";
import { notificationSchema, toNotificationJson } from "./gen/notifications.v1.calendar";

const pageNumber = (name: string, max: number, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number from 1 to ${max}` })
    .int(`${name} must be a whole number from 1 to ${max}`)
    .min(1, `${name} must be a whole number from 1 to ${max}`)
    .max(max, `${name} must be a whole number from 1 to ${max}`)
    .default(fallback);

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
        page: pageNumber("page", 100_000, 1),
        pageSize: pageNumber("pageSize", 100, 20),
        unread: z
          .enum(["true", "false"], { error: "unread is true or false" })
          .optional()
          .meta({ description: "true: only unread ones." }),
      }),
      response: z.object({
        result: z.array(notificationSchema),
        meta: z.object({ count: z.number(), currentPage: z.number(), totalPages: z.number(), unread: z.number() }),
      }),
      handler: async ({ query, as }) => {
        const page = await inbox.listNotifications(
          { page: query.page, pageSize: query.pageSize, unreadOnly: query.unread === "true" },
          as,
        );
        return {
          result: page.notifications.map(toNotificationJson),
          meta: { count: page.count, currentPage: page.currentPage, totalPages: page.totalPages, unread: page.unread },
        };
      },
    }),
  ];
}
