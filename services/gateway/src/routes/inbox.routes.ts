import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Notification } from "@crafter/proto/crafter/notifications/v1/calendar_pb";
import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { id } from "../http/schemas";
import type { RouteDeps } from "./deps";

const pageNumber = (name: string, max: number, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number from 1 to ${max}` })
    .int(`${name} must be a whole number from 1 to ${max}`)
    .min(1, `${name} must be a whole number from 1 to ${max}`)
    .max(max, `${name} must be a whole number from 1 to ${max}`)
    .default(fallback);

const notificationSchema = z
  .object({
    id: z.string(),
    level: z.enum(["info", "warning", "success", "error"]),
    title: z.string(),
    body: z.string(),
    link: z.string().optional(),
    read: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: "Notification" });

function toNotificationJson(n: Notification | undefined): z.input<typeof notificationSchema> {
  return {
    id: n?.id ?? "",
    level: (n?.level ?? "info") as "info",
    title: n?.title ?? "",
    body: n?.body ?? "",
    ...(n?.link ? { link: n.link } : {}),
    read: n?.read ?? false,
    createdAt: n?.createdAt ? timestampDate(n.createdAt).toISOString() : "",
  };
}

/** /api/notifications: the bell (docs/email-contract.md "Inbox"). */
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
    // Before /{id}/read, which would take "read-all" for an id.
    defineRoute({
      method: "post",
      path: `${N}/read-all`,
      tag: "notifications",
      summary: "Mark every notification of the caller read",
      auth: "session",
      body: z.object({}),
      response: z.object({ marked: z.number() }),
      handler: async ({ as }) => ({ marked: (await inbox.markAllNotificationsRead({}, as)).marked }),
    }),
    defineRoute({
      method: "post",
      path: `${N}/{id}/read`,
      tag: "notifications",
      summary: "Mark one notification read",
      auth: "session",
      params: z.object({ id: id("id") }),
      body: z.object({}),
      response: notificationSchema,
      errors: ["NOT_FOUND"],
      handler: async ({ params, as }) =>
        toNotificationJson((await inbox.markNotificationRead({ notificationId: params.id }, as)).notification),
    }),
  ];
}
