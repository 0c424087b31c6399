import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { projectQuery } from "../http/rest-bindings";
import type { RouteDeps } from "./deps";
import { calendarEntrySchema, toCalendarEntryJson } from "./gen/notifications.v1.calendar";

const TYPES = ["email", "social", "blog", "other"] as const;
const STATUSES = ["scheduled", "due", "sending", "sent", "published", "failed"] as const;

const pageNumber = (name: string, max: number, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number from 1 to ${max}` })
    .int(`${name} must be a whole number from 1 to ${max}`)
    .min(1, `${name} must be a whole number from 1 to ${max}`)
    .max(max, `${name} must be a whole number from 1 to ${max}`)
    .default(fallback);

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
        page: pageNumber("page", 100_000, 1),
        pageSize: pageNumber("pageSize", 100, 20),
        type: z.enum(TYPES, { error: `type is one of ${TYPES.join(", ")}` }).optional(),
        status: z.enum(STATUSES, { error: `status is one of ${STATUSES.join(", ")}` }).optional(),
        sort: z.enum(["date_time"], { error: "sort is date_time" }).optional(),
        order: z.enum(["asc", "desc"], { error: "order is asc or desc" }).optional(),
      }),
      response: z.object({
        result: z.array(calendarEntrySchema),
        meta: z.object({ count: z.number(), currentPage: z.number(), totalPages: z.number() }),
      }),
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
          meta: { count: page.count, currentPage: page.currentPage, totalPages: page.totalPages },
        };
      },
    }),
  ];
}
