import { addDays, dayIn, UTC } from "@crafter/time";
import type { NotificationsDeps } from "../deps";
import { calendarDayLink, dayOf, daysBetween, dueGroups, dueKey, dueTitle } from "../domain/calendar-entries";
import type { CalendarEntryDoc } from "../store/calendar.repository";
import { notify } from "./inbox";

type Deps = Pick<NotificationsDeps, "stores" | "calendar" | "now" | "logger" | "zones">;

/** A project's zone, read once per pass (several entries of a project turn due together). */
const zoneReader = (deps: Deps) => {
  const known = new Map<string, Promise<string>>();
  return (userId: string, projectId: string) => {
    const key = `${userId}\0${projectId}`;
    const zone = known.get(key) ?? deps.zones.zoneOf(userId, projectId);
    known.set(key, zone);
    return zone;
  };
};

/** The business's local day of an entry ("due today" is the business's today, not UTC's). */
async function localDay(
  zoneOf: ReturnType<typeof zoneReader>,
  entry: Pick<CalendarEntryDoc, "userId" | "projectId" | "dateTime">,
): Promise<string> {
  return dayIn(entry.dateTime, await zoneOf(entry.userId, entry.projectId));
}

/**
 * The day's notification for a user: "3 posts are due today", once per user and (local) day. The
 * count is the user's posts whose local day, in their project's time zone, is `day`: they sit on
 * the UTC days around it.
 */
async function notifyDue(deps: Deps, zoneOf: ReturnType<typeof zoneReader>, userId: string, day: string) {
  let count = 0;
  const zones = new Set<string>();
  for (const utcDay of [addDays(day, -1), day, addDays(day, 1)]) {
    for (const post of await deps.stores.calendar.postTimesOn(userId, utcDay)) {
      const zone = await zoneOf(userId, post.projectId);
      if (dayIn(post.dateTime, zone) !== day) continue;
      count += 1;
      zones.add(zone);
    }
  }
  const utcOnly = zones.size === 0 || (zones.size === 1 && zones.has(UTC));
  await notify(deps, {
    userId,
    level: "info",
    title: dueTitle(Math.max(count, 1)),
    body: `Scheduled for ${day}${utcOnly ? " (UTC)" : ""}. Publish them, then open the calendar to see what is next.`,
    link: calendarDayLink(day),
    key: dueKey(userId, day),
  });
}

/**
 * Turns an entry due right away when its time has passed (an entry scheduled or moved into the
 * past), with the day's notification. @returns the entry as it now is.
 */
export async function markDueNow(deps: Deps, doc: CalendarEntryDoc): Promise<CalendarEntryDoc> {
  if (!doc.pending || doc.dateTime.getTime() > deps.now().getTime()) return doc;
  if (await deps.stores.calendar.markDue(doc._id, doc.dateTime)) {
    const zoneOf = zoneReader(deps);
    await notifyDue(deps, zoneOf, doc.userId, await localDay(zoneOf, doc));
  }
  return { ...doc, pending: false, status: "due" };
}

/**
 * One pass of the due scan: every pending entry whose time has come turns due, and each user with
 * such entries gets the day's notification (idempotent per user and day, so a pass repeated after
 * a crash, or run by two pods at once, notifies once). Looks at the days from the last pass's
 * checkpoint to today, by equality on `day` and `pending`; the checkpoint lives in the database,
 * so a restart resumes from it and catches up entries that fell due while the service was down.
 * @returns how many entries turned due.
 */
export async function scanDue(deps: Deps): Promise<number> {
  const now = deps.now();
  const today = dayOf(now);
  const from = (await deps.stores.calendar.scanFrom()) ?? dayOf(new Date(now.getTime() - 86_400_000));
  const marked: CalendarEntryDoc[] = [];
  // A checkpoint after today (the clock went back) still scans today.
  for (const day of daysBetween([from, today].sort()[0]!, today)) {
    for (const entry of await deps.stores.calendar.pendingOn(day)) {
      if (entry.dateTime.getTime() > now.getTime()) continue;
      if (await deps.stores.calendar.markDue(entry._id, entry.dateTime)) marked.push(entry);
    }
  }
  const zoneOf = zoneReader(deps);
  const local = await Promise.all(
    marked.map(async (entry) => ({ userId: entry.userId, day: await localDay(zoneOf, entry) })),
  );
  for (const { userId, day } of dueGroups(local)) await notifyDue(deps, zoneOf, userId, day);
  // Every day before today is done: its entries' times have all passed.
  if (from !== today) await deps.stores.calendar.setScanFrom(today);
  return marked.length;
}

/** One due scan, logged (the job queue runs it every CALENDAR_DUE_SCAN_MS in one replica). */
export async function runDueScan(deps: Deps): Promise<void> {
  const count = await scanDue(deps);
  if (count > 0) deps.logger.info({ count }, "calendar entries turned due");
}
