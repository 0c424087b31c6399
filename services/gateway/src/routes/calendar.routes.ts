import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { paged, pageMetaOf, paging, projectQuery } from "../http/rest-bindings";
import type { RouteDeps } from "./deps";
import { calendarEntrySchema, toCalendarEntryJson } from "./gen/notifications.v1.calendar";

const TYPES = ["email", "social", "blog", "other"] as const;
const STATUSES = ["scheduled", "due", "sending", "sent", "published", "failed"] as const;

/**
 * /api/calendar/list, the list view of the content calendar (docs/email-contract.md "Calendar"; flag
 * content_calendar in the web). The other calendar routes are generated from calendar.proto (routes/gen).
 */
export function calendarRoutes({ clients }: RouteDeps): RouteDef[] {
  const { calendar } = clients;
  const C = "/api/calendar";
  return [
    defineRoute({
      method: "get",
      path: `${C}/list`,
      tag: "calendar",
      summary: "One page of the calendar's list view, by time",
      auth: "session",
      actsInProject: true,
      query: z.object({
        ...projectQuery,
        ...paging,
        type: z.enum(TYPES, { error: `type is one of ${TYPES.join(", ")}` }).optional(),
        status: z.enum(STATUSES, { error: `status is one of ${STATUSES.join(", ")}` }).optional(),
        sort: z.enum(["date_time"], { error: "sort is date_time" }).optional(),
        order: z.enum(["asc", "desc"], { error: "order is asc or desc" }).optional(),
      }),
      response: paged(calendarEntrySchema),
      errors: ["NOT_FOUND"],
      handler: async ({ query, as, project }) => {
        const projectId = project.projectId;
        const page = await calendar.listCalendarPage(
          {
            projectId,
            page: query.page,
            pageSize: query.pageSize,
            type: query.type ?? "",
            status: query.status ?? "",
            descending: query.order === "desc",
          },
          as,
        );
        return {
          result: page.entries.map(toCalendarEntryJson),
          meta: pageMetaOf(page),
        };
      },
    }),
  ];
}
