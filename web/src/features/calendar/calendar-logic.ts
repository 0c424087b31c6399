// Pure logic of the content calendar page: types and colours, the list view's columns (saved in
// the user settings' `contentCalendarColumns`), rates and the moves a drag makes. Unit tested.

import { instantAt, UTC, wallClockIn } from "@crafter/time";
import type { CalendarChannelState, CalendarEntry } from "../../api/calendar";

export type CalendarType = CalendarEntry["type"];
export type CalendarStatus = CalendarEntry["status"];
export type { CalendarEntry };
/** A social post's state on one channel. */
export type ChannelState = CalendarChannelState["state"];

/** One colour per type, on the calendar and in the list (with a label, never colour alone). */
export const TYPE_STYLE: Record<CalendarType, { label: string; color: string }> = {
  email: { label: "Email", color: "#1677ff" },
  social: { label: "Social post", color: "#eb2f96" },
  blog: { label: "Blog post", color: "#52c41a" },
  other: { label: "Other", color: "#8c8c8c" },
};

/** A social post that failed on a channel (with an icon and "Failed", never colour alone). */
export const FAILED_COLOR = "#cf1322";

export const STATUS_COLOR: Record<CalendarStatus, string> = {
  scheduled: "blue",
  due: "orange",
  sending: "processing",
  sent: "green",
  published: "green",
  failed: "red",
};

/** The spec's `contentCalendarColumns` defaults, in order. */
export const DEFAULT_CALENDAR_COLUMNS = [
  "id",
  "title",
  "type",
  "status",
  "date_time",
  "delivery_rate",
  "bounce_rate",
  "open_rate",
  "click_rate",
  "action",
] as const;
export type CalendarColumn = (typeof DEFAULT_CALENDAR_COLUMNS)[number];

export const COLUMN_TITLES: Record<CalendarColumn, string> = {
  id: "ID",
  title: "Title",
  type: "Type",
  status: "Status",
  date_time: "Date and time",
  delivery_rate: "Delivery rate",
  bounce_rate: "Bounce rate",
  open_rate: "Open rate",
  click_rate: "Click rate",
  action: "Action",
};

/** The columns to show, in the spec's order: the saved choice, or the defaults when none is known. */
export function visibleCalendarColumns(saved: readonly string[] | undefined): CalendarColumn[] {
  const chosen = new Set(saved ?? []);
  const shown = DEFAULT_CALENDAR_COLUMNS.filter((c) => chosen.has(c));
  return shown.length > 0 ? shown : [...DEFAULT_CALENDAR_COLUMNS];
}

/** The list to save after the picker turned a column on or off; the last one cannot go. */
export function toggleCalendarColumn(
  saved: readonly string[] | undefined,
  column: CalendarColumn,
  on: boolean,
): string[] {
  const current = visibleCalendarColumns(saved);
  const next = on
    ? DEFAULT_CALENDAR_COLUMNS.filter((c) => c === column || current.includes(c))
    : current.filter((c) => c !== column);
  return next.length > 0 ? [...next] : [...current];
}

/** A 0–1 fraction as a percentage with one decimal, "—" when the entry has none (crafts). */
export function formatRate(rate: number | undefined): string {
  if (rate === undefined || Number.isNaN(rate)) return "—";
  return `${(Math.round(rate * 1000) / 10).toFixed(1)}%`;
}

/**
 * Whether the user may drag an entry: crafts that are not published, campaigns still scheduled, a
 * social post until a channel starts publishing (the server refuses it after, with its reason).
 */
export function canMove(
  entry: Pick<CalendarEntry, "campaignId" | "status"> & { channels?: { state: string }[] },
): boolean {
  if (entry.campaignId) return entry.status === "scheduled";
  if (entry.channels?.some((c) => c.state !== "scheduled")) return false;
  return entry.status !== "published";
}

/** What each channel state is called and its tag colour (shown with an icon and words, never colour alone). */
export const CHANNEL_STATE_STYLE: Record<ChannelState, { label: string; color: string }> = {
  scheduled: { label: "Scheduled", color: "blue" },
  publishing: { label: "Publishing", color: "processing" },
  published: { label: "Published", color: "success" },
  failed: { label: "Failed", color: "error" },
};

/** Whether a social post failed on a channel (it stands out on the calendar until retried). */
export function hasFailedChannel(entry: Pick<CalendarEntry, "channels">): boolean {
  return (entry.channels ?? []).some((c) => c.state === "failed");
}

/** Polling while publishing: every 3 s. */
export const PUBLISHING_REFRESH_MS = 3_000;
/** A post due further ahead than this is not waited for (the next visit or focus shows it). */
const WATCH_AHEAD_MS = 15 * 60_000;

/**
 * How soon the calendar asks again for its entries: every few seconds while a social post is
 * publishing or its time has just come (the engine is about to start it); just after the time of
 * the next one due within a quarter of an hour; otherwise not (0).
 */
export function socialRefreshMs(
  entries: readonly Pick<CalendarEntry, "dateTime" | "channels">[] | undefined,
  now: Date,
): number {
  let soonest = Number.POSITIVE_INFINITY;
  for (const entry of entries ?? []) {
    const channels = entry.channels ?? [];
    if (channels.some((c) => c.state === "publishing")) return PUBLISHING_REFRESH_MS;
    if (!channels.some((c) => c.state === "scheduled")) continue;
    const wait = new Date(entry.dateTime).getTime() - now.getTime();
    // Past its time and not started: the engine is about to; one that stays so long is not watched.
    if (wait <= 0) {
      if (wait > -WATCH_AHEAD_MS) return PUBLISHING_REFRESH_MS;
      continue;
    }
    soonest = Math.min(soonest, wait);
  }
  return soonest <= WATCH_AHEAD_MS ? Math.max(PUBLISHING_REFRESH_MS, soonest + 1_000) : 0;
}

/**
 * Whether "Unschedule" is offered: a campaign only while it is scheduled (one that is sending or
 * sent cannot be called back, and the server answers 409); a craft's entry always (the craft stays).
 */
export function canUnschedule(entry: Pick<CalendarEntry, "campaignId" | "status">): boolean {
  return entry.campaignId ? entry.status === "scheduled" : true;
}

/** The query of `GET /api/calendar` for the range a view shows (ISO times). */
export function rangeQuery(start: Date, end: Date, projectId?: string): string {
  const params = new URLSearchParams({ from: start.toISOString(), to: end.toISOString() });
  if (projectId) params.set("projectId", projectId);
  return `/api/calendar?${params}`;
}

/**
 * A `datetime-local` value ("2026-11-25T10:00") on the wall clock of `zone` (the business's) as
 * an ISO time, or null when it is not a time.
 */
export function localInputToIso(value: string, zone: string): string | null {
  return instantAt(value, zone)?.toISOString() ?? null;
}

/** A time as a `datetime-local` value on the wall clock of `zone` (minutes). */
export function isoToLocalInput(at: Date, zone: string): string {
  return wallClockIn(at, zone).slice(0, 16);
}

/**
 * FullCalendar runs in UTC and shows the business's wall clock: an instant becomes its wall-clock
 * time in `zone`, written as if it were UTC ("2026-03-08T09:00:00Z" for 09:00 in Los Angeles), so the
 * grid's days and hours are the business's whatever the browser's zone.
 */
export function toCalendarTime(at: Date, zone: string): string {
  return `${wallClockIn(at, zone)}Z`;
}

/** The instant a calendar time (a wall clock of `zone` written as UTC) names: a drop, a range's edge. */
export function fromCalendarTime(calendarTime: Date, zone: string): Date {
  return instantAt(wallClockIn(calendarTime, UTC), zone) ?? calendarTime;
}

/** The calendar's view by screen width: the list on phones (below 576 px), else the saved mode. */
export function initialMode(savedMode: string | undefined, width: number): "calendar" | "list" {
  if (width < 576) return "list";
  return savedMode === "list" ? "list" : "calendar";
}
