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
import { postStatus } from "../domain/social-publishing";
import { type CalendarEntryDoc, calendarEntryIdOf } from "../store/calendar.repository";
import { markDueNow } from "./calendar-due";
import {
  channelStates,
  dropSocialPost,
  moveSocialPost,
  type SocialChannelStateView,
  type SocialDeps,
} from "./social-publishing";

export type Deps = Pick<NotificationsDeps, "stores" | "calendar" | "now" | "logger" | "zones"> &
  Pick<SocialDeps, "social" | "email">;

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
  /** A social post published from the calendar: its id and its state on each channel. */
  socialPostId: string;
  channels: SocialChannelStateView[];
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
    socialPostId: "",
    channels: [],
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
  const social = await socialOf(deps, docs);
  return docs.map((d) => {
    const shown = view(d, d.source === "campaign" ? figures.get(d.campaignId) : undefined);
    const channels = social.get(d._id);
    if (!channels) return shown;
    return { ...shown, socialPostId: d._id, channels, status: postStatus(channels.map((c) => c.state)) };
  });
}

/** The channels' states of the social posts among the entries (a post's id is its entry's). */
async function socialOf(deps: Deps, docs: CalendarEntryDoc[]): Promise<Map<string, SocialChannelStateView[]>> {
  const ids = docs.filter((d) => d.type === "social" && d.source === "craft").map((d) => d._id);
  const posts = await deps.stores.social.postsByIds(ids);
  const attempts = await deps.stores.social.attemptsOfPosts(posts.map((p) => p._id));
  return new Map(posts.map((post) => [post._id, channelStates(deps, post, attempts.get(post._id) ?? new Map())]));
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
  // A social post the engine publishes moves with its entry (CONFLICT once a channel started).
  const published = await moveSocialPost(deps, id, dateTime);
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
    ...(published
      ? { dateTime, day: dayOf(dateTime), pending: false, status: "scheduled" as const }
      : placement(type, dateTime)),
  });
  return (await views(deps, caller.userId, [await markDueNow(deps, doc)]))[0]!;
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
  // A social post the engine publishes moves with its entry (CONFLICT once a channel started).
  const published = await moveSocialPost(deps, found._id, dateTime);
  const moved = await deps.stores.calendar.set(
    found._id,
    published ? { dateTime, day: dayOf(dateTime), pending: false } : placement(found.type, dateTime),
  );
  if (!moved) throw appError("NOT_FOUND", "No such calendar entry.");
  return (await views(deps, caller.userId, [await markDueNow(deps, moved)]))[0]!;
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
  else await dropSocialPost(deps, found._id);
  await deps.stores.calendar.remove(found._id);
}
