import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { CalendarEntry } from "@crafter/proto/crafter/notifications/v1/calendar_pb";
import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { id, isoTime } from "../http/schemas";
import type { RouteDeps } from "./deps";

const TYPES = ["email", "social", "blog", "other"] as const;
const STATUSES = ["scheduled", "due", "sending", "sent", "published", "failed"] as const;

const pageNumber = (name: string, max: number, fallback: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number from 1 to ${max}` })
    .int(`${name} must be a whole number from 1 to ${max}`)
    .min(1, `${name} must be a whole number from 1 to ${max}`)
    .max(max, `${name} must be a whole number from 1 to ${max}`)
    .default(fallback);

const projectQuery = {
  projectId: z
    .string({ error: "projectId must be text" })
    .max(64, "projectId has at most 64 characters")
    .optional()
    .meta({ description: "The project; the active one when absent." }),
};

const entrySchema = z
  .object({
    id: z.string(),
    title: z.string(),
    type: z.enum(TYPES),
    status: z.enum(STATUSES),
    dateTime: z.string(),
    craftId: z.string().optional(),
    campaignId: z.string().optional(),
    workflowName: z.string().optional(),
    link: z.string(),
    deliveryRate: z.number().optional(),
    bounceRate: z.number().optional(),
    openRate: z.number().optional(),
    clickRate: z.number().optional(),
  })
  .meta({ id: "CalendarEntry" });

function toEntryJson(e: CalendarEntry | undefined): z.input<typeof entrySchema> {
  const entry = e!;
  return {
    id: entry.id,
    title: entry.title,
    type: entry.type as (typeof TYPES)[number],
    status: entry.status as (typeof STATUSES)[number],
    dateTime: entry.dateTime ? timestampDate(entry.dateTime).toISOString() : "",
    ...(entry.craftId ? { craftId: entry.craftId } : {}),
    ...(entry.campaignId ? { campaignId: entry.campaignId } : {}),
    ...(entry.workflowName ? { workflowName: entry.workflowName } : {}),
    link: entry.link,
    ...(entry.deliveryRate !== undefined ? { deliveryRate: entry.deliveryRate } : {}),
    ...(entry.bounceRate !== undefined ? { bounceRate: entry.bounceRate } : {}),
    ...(entry.openRate !== undefined ? { openRate: entry.openRate } : {}),
    ...(entry.clickRate !== undefined ? { clickRate: entry.clickRate } : {}),
  };
}

/** /api/calendar: the content calendar (docs/email-contract.md "Calendar"; flag content_calendar in the web). */
export function calendarRoutes({ clients }: RouteDeps): RouteDef[] {
  const { calendar } = clients;
  const C = "/api/calendar";
  const entryParams = z.object({ id: id("id") });
  return [
    defineRoute({
      method: "get",
      path: C,
      tag: "calendar",
      summary: "The project's scheduled crafts and campaigns between two times (at most 62 days)",
      auth: "session",
      actsInProject: true,
      query: z.object({ ...projectQuery, from: isoTime("from"), to: isoTime("to") }),
      response: z.array(entrySchema),
      errors: ["NOT_FOUND"],
      handler: async ({ query, as, project }) => {
        const projectId = project.projectId;
        const { entries } = await calendar.listCalendarEntries(
          {
            projectId,
            from: timestampFromDate(new Date(query.from)),
            to: timestampFromDate(new Date(query.to)),
          },
          as,
        );
        return entries.map(toEntryJson);
      },
    }),
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
        result: z.array(entrySchema),
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
          result: page.entries.map(toEntryJson),
          meta: { count: page.count, currentPage: page.currentPage, totalPages: page.totalPages },
        };
      },
    }),
    defineRoute({
      method: "post",
      path: C,
      tag: "calendar",
      summary: "Schedule a craft (its type comes from its workflow)",
      description:
        "A craft already on the calendar moves to the new time. A post whose time has passed is due at once.",
      auth: "session",
      actsInProject: true,
      query: z.object(projectQuery),
      body: z.object({
        craftId: id("craftId"),
        dateTime: isoTime("dateTime"),
        type: z.enum(TYPES, { error: `type is one of ${TYPES.join(", ")}` }).optional(),
      }),
      response: entrySchema,
      status: 201,
      idempotent: true,
      errors: ["NOT_FOUND"],
      handler: async ({ body, as, project }) => {
        const projectId = project.projectId;
        const { entry } = await calendar.scheduleCraft(
          {
            projectId,
            craftId: body.craftId,
            dateTime: timestampFromDate(new Date(body.dateTime)),
            type: body.type ?? "",
          },
          as,
        );
        return toEntryJson(entry);
      },
    }),
    defineRoute({
      method: "patch",
      path: `${C}/{id}`,
      tag: "calendar",
      summary: "Move an entry (drag); a campaign's entry reschedules the campaign",
      auth: "session",
      actsInProject: true,
      params: entryParams,
      query: z.object(projectQuery),
      body: z.object({ dateTime: isoTime("dateTime") }),
      response: entrySchema,
      errors: ["NOT_FOUND", "CONFLICT"],
      handler: async ({ params, body, as, project }) => {
        const projectId = project.projectId;
        const { entry } = await calendar.rescheduleEntry(
          { projectId, entryId: params.id, dateTime: timestampFromDate(new Date(body.dateTime)) },
          as,
        );
        return toEntryJson(entry);
      },
    }),
    defineRoute({
      method: "delete",
      path: `${C}/{id}`,
      tag: "calendar",
      summary: "Take an entry off the calendar (a campaign's entry unschedules the campaign)",
      auth: "session",
      actsInProject: true,
      params: entryParams,
      query: z.object(projectQuery),
      response: z.object({ deleted: z.boolean() }),
      errors: ["NOT_FOUND", "CONFLICT"],
      handler: async ({ params, as, project }) => {
        const projectId = project.projectId;
        await calendar.unscheduleEntry({ projectId, entryId: params.id }, as);
        return { deleted: true };
      },
    }),
  ];
}
