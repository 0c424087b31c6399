// Pure logic of the content calendar page: types and colours, the list view's columns (saved in
// the user settings' `contentCalendarColumns`), rates and the moves a drag makes. Unit tested.

import { instantAt, UTC, wallClockIn } from "@crafter/time";

export type CalendarType = "email" | "social" | "blog" | "other";
export type CalendarStatus = "scheduled" | "due" | "sending" | "sent" | "published" | "failed";

/** docs/email-contract.md `CalendarEntry`. */
export interface CalendarEntry {
  id: string;
  title: string;
  type: CalendarType;
  status: CalendarStatus;
  dateTime: string;
  craftId?: string;
  campaignId?: string;
  workflowName?: string;
  link: string;
  deliveryRate?: number;
  bounceRate?: number;
  openRate?: number;
  clickRate?: number;
}

/** One colour per type, on the calendar and in the list (with a label, never colour alone). */
export const TYPE_STYLE: Record<CalendarType, { label: string; color: string }> = {
  email: { label: "Email", color: "#1677ff" },
  social: { label: "Social post", color: "#eb2f96" },
  blog: { label: "Blog post", color: "#52c41a" },
  other: { label: "Other", color: "#8c8c8c" },
};

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

/** Whether the user may drag an entry: crafts that are not published, campaigns still scheduled. */
export function canMove(entry: Pick<CalendarEntry, "campaignId" | "status">): boolean {
  if (entry.campaignId) return entry.status === "scheduled";
  return entry.status !== "published";
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
