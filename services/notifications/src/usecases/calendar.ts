import { appError, badRequest, type Caller } from "@crafter/kit";
import type { NotificationsDeps } from "../deps";
import {
  CALENDAR_STATUSES,
  CALENDAR_TYPES,
  type CalendarStatus,
  type CalendarType,
  craftLink,
  dayOf,
  rangeProblem,
  statusOfCampaign,
  turnsDue,
  typeOfWorkflow,
} from "../domain/calendar-entries";
import type { CampaignFigures } from "../domain/calendar-ports";
import { pageOf, totalPages } from "../domain/inbox";
import { type CalendarEntryDoc, calendarEntryIdOf } from "../store/calendar.repository";
import { markDueNow } from "./calendar-due";

export type Deps = Pick<NotificationsDeps, "stores" | "calendar" | "now" | "logger" | "zones">;

/** An entry as the RPC and REST layers show it (docs/email-contract.md `CalendarEntry`). */
export interface CalendarEntryView {
  id: string;
  title: string;
  type: CalendarType;
  status: CalendarStatus;
  dateTime: Date;
  craftId: string;
  campaignId: string;
  workflowName: string;
  link: string;
  deliveryRate?: number;
  bounceRate?: number;
  openRate?: number;
  clickRate?: number;
}

function view(doc: CalendarEntryDoc, figures?: CampaignFigures): CalendarEntryView {
  const base: CalendarEntryView = {
    id: doc._id,
    title: doc.title,
    type: doc.type,
    status: doc.status,
    dateTime: doc.dateTime,
    craftId: doc.craftId,
    campaignId: doc.campaignId,
    workflowName: doc.workflowName,
    link: doc.link,
  };
  if (!figures) return base;
  return {
    ...base,
    // The campaign's own status is fresher than the last event the calendar saw.
    status: statusOfCampaign(figures.status),
    deliveryRate: figures.stats.deliveryRate,
    bounceRate: figures.stats.bounceRate,
    openRate: figures.stats.openRate,
    clickRate: figures.stats.clickRate,
  };
}

/** Views of entries, campaign ones with their status and rates from the email area. */
async function views(deps: Deps, userId: string, docs: CalendarEntryDoc[]): Promise<CalendarEntryView[]> {
  const campaignIds = docs.filter((d) => d.source === "campaign").map((d) => d.campaignId);
  let figures = new Map<string, CampaignFigures>();
  if (campaignIds.length > 0) {
    try {
      figures = await deps.calendar.campaigns.campaignsForCalendar({ userId, campaignIds });
    } catch (error) {
      // The calendar still shows the entries, without their rates.
      deps.logger.warn({ err: error }, "campaign figures unavailable for the calendar");
    }
  }
  return docs.map((d) => view(d, d.source === "campaign" ? figures.get(d.campaignId) : undefined));
}

function projectOf(projectId: string): string {
  if (projectId.length > 64) throw badRequest({ projectId: "projectId is too long" });
  return projectId;
}

function validDate(at: Date | undefined, field: string): Date {
  if (!at || Number.isNaN(at.getTime())) throw badRequest({ [field]: `${field} must be a date` });
  return at;
}

/**
 * The project's entries with `from <= dateTime < to`, by time.
 * @throws CR_ERR_BAD_REQUEST for an invalid range or one longer than 62 days.
 */
export async function listCalendarEntries(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; from: Date | undefined; to: Date | undefined },
): Promise<CalendarEntryView[]> {
  const from = input.from ?? new Date(Number.NaN);
  const to = input.to ?? new Date(Number.NaN);
  const problem = rangeProblem(from, to);
  if (problem) throw badRequest({ [problem.field]: problem.message });
  const docs = await deps.stores.calendar.inRange(caller.userId, projectOf(input.projectId), from, to);
  return views(deps, caller.userId, docs);
}

/** One page of the project's entries (the list view), filtered by type and status, by time. */
export async function listCalendarPage(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; page: number; pageSize: number; type: string; status: string; descending: boolean },
): Promise<{ entries: CalendarEntryView[]; count: number; currentPage: number; totalPages: number }> {
  if (input.type && !(CALENDAR_TYPES as readonly string[]).includes(input.type))
    throw badRequest({ type: `type is one of ${CALENDAR_TYPES.join(", ")}` });
  if (input.status && !(CALENDAR_STATUSES as readonly string[]).includes(input.status))
    throw badRequest({ status: `status is one of ${CALENDAR_STATUSES.join(", ")}` });
  const { page, pageSize, skip } = pageOf(input.page, input.pageSize);
  const { items, count } = await deps.stores.calendar.page(caller.userId, projectOf(input.projectId), {
    type: input.type,
    status: input.status,
    descending: input.descending,
    skip,
    limit: pageSize,
  });
  return {
    entries: await views(deps, caller.userId, items),
    count,
    currentPage: page,
    totalPages: totalPages(count, pageSize),
  };
}

/** The fields that place an entry at a time: due right away when the time has passed. */
function placement(type: CalendarType, dateTime: Date) {
  return { dateTime, day: dayOf(dateTime), pending: turnsDue(type), status: "scheduled" as const };
}

/**
 * Schedules one of the caller's crafts (or moves it when it is on the calendar already). The type
 * comes from its workflow unless given. A social, blog or other entry whose time has passed turns
 * due at once, with its notification.
 * @throws NOT_FOUND when the craft is not the caller's; CR_ERR_BAD_REQUEST for an invalid time or type.
 */
export async function scheduleCraft(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; craftId: string; dateTime: Date | undefined; type: string },
): Promise<CalendarEntryView> {
  const dateTime = validDate(input.dateTime, "dateTime");
  if (input.type && !(CALENDAR_TYPES as readonly string[]).includes(input.type))
    throw badRequest({ type: `type is one of ${CALENDAR_TYPES.join(", ")}` });
  if (input.craftId === "" || input.craftId.length > 64) throw badRequest({ craftId: "craftId is required" });
  const craft = await deps.calendar.crafts.craft(caller, input.craftId);
  if (!craft) throw appError("NOT_FOUND", "Craft not found.");
  const type = (input.type || typeOfWorkflow(craft.workflowName)) as CalendarType;
  const id = calendarEntryIdOf("craft", caller.userId, craft.craftId);
  const doc = await deps.stores.calendar.put(id, {
    userId: caller.userId,
    // The craft's own project (the one it was written in), else the one the request names.
    projectId: craft.projectId || projectOf(input.projectId),
    source: "craft",
    craftId: craft.craftId,
    campaignId: "",
    title: craft.name || craft.workflowName,
    type,
    workflowName: craft.workflowName,
    link: craftLink(craft.workflowName, craft.craftId),
    ...placement(type, dateTime),
  });
  return view(await markDueNow(deps, doc));
}

/**
 * Moves an entry to another time (the calendar's drag). A campaign's entry reschedules the
 * campaign through the email area, which then publishes CampaignScheduled; the entry moves now.
 * @throws NOT_FOUND (not the caller's), CONFLICT (a campaign that is sending or sent), the
 *   campaign's own errors, CR_ERR_BAD_REQUEST (an invalid time).
 */
export async function rescheduleEntry(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; entryId: string; dateTime: Date | undefined },
): Promise<CalendarEntryView> {
  const dateTime = validDate(input.dateTime, "dateTime");
  const found = await deps.stores.calendar.get(caller.userId, projectOf(input.projectId), input.entryId.slice(0, 64));
  if (!found) throw appError("NOT_FOUND", "No such calendar entry.");
  if (found.source === "campaign") {
    if (found.status !== "scheduled") throw appError("CONFLICT", "This campaign is no longer scheduled.");
    await deps.calendar.campaigns.rescheduleCampaign({
      userId: caller.userId,
      campaignId: found.campaignId,
      at: dateTime.toISOString(),
    });
    const moved = await deps.stores.calendar.set(found._id, { dateTime, day: dayOf(dateTime) });
    return (await views(deps, caller.userId, [moved ?? found]))[0]!;
  }
  const moved = await deps.stores.calendar.set(found._id, placement(found.type, dateTime));
  if (!moved) throw appError("NOT_FOUND", "No such calendar entry.");
  return view(await markDueNow(deps, moved));
}

/**
 * Takes an entry off the calendar; a campaign's entry unschedules the campaign.
 * @throws NOT_FOUND, and the campaign's own errors.
 */
export async function unscheduleEntry(
  deps: Deps,
  caller: Caller,
  input: { projectId: string; entryId: string },
): Promise<void> {
  const found = await deps.stores.calendar.get(caller.userId, projectOf(input.projectId), input.entryId.slice(0, 64));
  if (!found) throw appError("NOT_FOUND", "No such calendar entry.");
  if (found.source === "campaign")
    await deps.calendar.campaigns.rescheduleCampaign({ userId: caller.userId, campaignId: found.campaignId, at: "" });
  await deps.stores.calendar.remove(found._id);
}
