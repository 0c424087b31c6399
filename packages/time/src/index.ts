import { TZDate, tz } from "@date-fns/tz";
import { addDays as addCalendarDays, format, isValid, parse } from "date-fns";

/**
 * Days and times of a business, in its IANA time zone (the business profile's `timeZone`). Pure:
 * every function takes the zone it works in; instants are plain `Date`s (stored in UTC). Offsets
 * and daylight-saving changes are date-fns' and @date-fns/tz's, never computed here by hand.
 */

/** The zone of a project without one (projects made before time zones): UTC, as before. */
export const UTC = "UTC";

/** A calendar day, "YYYY-MM-DD". */
export type Day = string;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)$/;
// Area/Location names (and the few one-word ones the list carries, e.g. UTC, GMT, EST5EDT).
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

let known: Set<string> | undefined;
const supported = () => {
  known ??= new Set(Intl.supportedValuesOf("timeZone"));
  return known;
};

/**
 * Every IANA time zone the runtime knows (`Intl.supportedValuesOf('timeZone')`), with UTC, sorted:
 * the choices of a time-zone picker.
 */
export function timeZones(): string[] {
  return [...new Set([UTC, ...supported()])].sort();
}

/**
 * The zone as stored: the name itself when the runtime lists it (or UTC), else the runtime's
 * canonical name for a known alias ("US/Pacific"). @returns null for anything else: offsets
 * ("+01:00"), abbreviations the runtime does not know, empty or non-text input.
 */
export function canonicalTimeZone(name: unknown): string | null {
  if (typeof name !== "string" || name.length > 64 || !ZONE_NAME.test(name)) return null;
  if (name === UTC || supported().has(name)) return name;
  try {
    const resolved = new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
    return resolved === UTC || supported().has(resolved) ? resolved : name;
  } catch {
    return null;
  }
}

/** Whether `name` is an IANA time zone the runtime knows. */
export function isTimeZone(name: unknown): name is string {
  return canonicalTimeZone(name) !== null;
}

/** The zone to compute in: a stored zone, or UTC when the project has none (or an unknown one). */
export function zoneOrUtc(name: string | null | undefined): string {
  return canonicalTimeZone(name) ?? UTC;
}

/** The browser's (or server's) own zone, the default a new business starts with; UTC when unknown. */
export function localTimeZone(): string {
  return zoneOrUtc(Intl.DateTimeFormat().resolvedOptions().timeZone);
}

/** The local day of an instant in `zone` ("YYYY-MM-DD"). */
export function dayIn(at: Date, zone: string): Day {
  return format(at, "yyyy-MM-dd", { in: tz(zone) });
}

/** The local wall-clock time of an instant in `zone`, "YYYY-MM-DDTHH:mm:ss" (no offset). */
export function wallClockIn(at: Date, zone: string): string {
  return format(at, "yyyy-MM-dd'T'HH:mm:ss", { in: tz(zone) });
}

/** "HH:mm" of an instant in `zone`. */
export function timeOfDayIn(at: Date, zone: string): string {
  return format(at, "HH:mm", { in: tz(zone) });
}

/**
 * The instant a local wall-clock time ("YYYY-MM-DDTHH:mm[:ss]") names in `zone`. A time that does
 * not exist (skipped by a daylight-saving change, e.g. 01:30 on the last Sunday of March in
 * London) moves forward by the gap; a time that happens twice is its first occurrence's offset as
 * @date-fns/tz resolves it. @returns null when the text is not such a time.
 */
export function instantAt(wallClock: string, zone: string): Date | null {
  const m = WALL_CLOCK.exec(wallClock);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0)) as number[];
  const local = new TZDate(y!, mo! - 1, d!, h!, mi!, s!, zone);
  // Date rolls 31 February over to March: such a text is not a time.
  if (!isValid(local) || local.getFullYear() !== y || local.getMonth() !== mo! - 1 || local.getDate() !== d)
    return null;
  return new Date(local.getTime());
}

/** Whether `text` is a real calendar day "YYYY-MM-DD". */
export function isDay(text: unknown): text is Day {
  if (typeof text !== "string" || !DAY.test(text)) return false;
  return isValid(parse(text, "yyyy-MM-dd", new Date(0)));
}

/** The instant a local day starts in `zone` (its midnight, or the first time after a midnight gap). */
export function startOfDayIn(day: Day, zone: string): Date {
  const start = instantAt(`${day}T00:00`, zone);
  if (!start) throw new RangeError(`Not a day (YYYY-MM-DD): ${day}`);
  return start;
}

/**
 * The instants of a local day in `zone`: `[start, end)`, 23, 24 or 25 hours long on
 * daylight-saving days.
 */
export function dayRangeIn(day: Day, zone: string): { start: Date; end: Date } {
  return { start: startOfDayIn(day, zone), end: startOfDayIn(addDays(day, 1), zone) };
}

/** The calendar day `n` days after `day` (before, for negative n). */
export function addDays(day: Day, n: number): Day {
  return format(addCalendarDays(parse(day, "yyyy-MM-dd", new Date(0)), n), "yyyy-MM-dd");
}

/** Every calendar day from `from` to `to`, both included (empty when `to` is earlier). */
export function daysFrom(from: Day, to: Day): Day[] {
  const days: Day[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** Whether `text` is a time of day "HH:mm" (00:00 to 23:59). */
export function isTimeOfDay(text: unknown): text is string {
  return typeof text === "string" && TIME_OF_DAY.test(text);
}

/**
 * The first instant after `after` whose wall clock in `zone` reads `time` ("HH:mm"): later today
 * when that time has not come yet, else tomorrow. Across a daylight-saving change it is still
 * `time` local (a wait "until 09:00" set on the Saturday before the clocks go forward ends at
 * 09:00 summer time, 23 hours later). A time skipped by the change moves forward by the gap.
 */
export function nextTimeOfDay(after: Date, time: string, zone: string): Date {
  if (!isTimeOfDay(time)) throw new RangeError(`Not a time of day (HH:mm): ${time}`);
  const today = dayIn(after, zone);
  const sameDay = instantAt(`${today}T${time}`, zone)!;
  if (sameDay.getTime() > after.getTime()) return sameDay;
  return instantAt(`${addDays(today, 1)}T${time}`, zone)!;
}

/** The month and day of a day, "MM-DD" (how contacts index date fields by day of the year). */
export function monthDayOf(day: Day): string {
  return day.slice(5, 10);
}

/**
 * The zone's offset from UTC at an instant, as people write it: "GMT", "GMT+1", "GMT-7",
 * "GMT+5:30".
 */
export function offsetLabel(at: Date, zone: string): string {
  const part = new Intl.DateTimeFormat("en-GB", { timeZone: zone, timeZoneName: "shortOffset" })
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName");
  // Some ICU versions write the zero offset "GMT+0".
  return !part || part.value === "GMT+0" ? "GMT" : part.value;
}

/** A zone for a picker or a notice: "Europe/London (GMT+1)" at the given instant. */
export function zoneLabel(zone: string, at: Date): string {
  return `${zone.replace(/_/g, " ")} (${offsetLabel(at, zone)})`;
}

/**
 * An instant as people read it on the wall clock of `zone`, with a date-fns pattern
 * (default "d MMM yyyy, HH:mm": "8 Mar 2026, 09:00").
 */
export function formatIn(at: Date, zone: string, pattern = "d MMM yyyy, HH:mm"): string {
  return format(at, pattern, { in: tz(zone) });
}

/**
 * The instant `zone`'s wall clock reads what `from`'s wall clock reads at `at`: a campaign
 * scheduled for 09:00 in the business's zone, released at 09:00 in a contact's own zone. A wall
 * clock that `zone` skips (a daylight-saving gap) moves forward by the gap, as `instantAt` does.
 */
export function sameWallClockIn(at: Date, from: string, zone: string): Date {
  return instantAt(wallClockIn(at, from), zone) ?? at;
}

/**
 * The earliest instant any zone the runtime knows reads the wall clock that `from` reads at `at`
 * (the zone furthest east, e.g. Pacific/Kiritimati at UTC+14): from then on some contact's local
 * time may have come.
 */
export function earliestWallClockAnywhere(at: Date, from: string): Date {
  const wallClock = wallClockIn(at, from);
  let earliest = at;
  for (const zone of timeZones()) {
    const instant = instantAt(wallClock, zone);
    if (instant && instant.getTime() < earliest.getTime()) earliest = instant;
  }
  return earliest;
}

/**
 * Groups people by the instant `from`'s wall clock at `at` comes in their own zone (those without
 * a known zone in `from`'s, so at `at` itself): one release per distinct instant, earliest first.
 * @param zoneOf a person's IANA zone, or "" / an unknown name for none.
 */
export function releaseGroups<T>(
  people: readonly T[],
  zoneOf: (person: T) => string,
  at: Date,
  from: string,
): Array<{ at: Date; people: T[] }> {
  const byInstant = new Map<number, T[]>();
  const instants = new Map<string, number>();
  for (const person of people) {
    const zone = canonicalTimeZone(zoneOf(person)) ?? from;
    let instant = instants.get(zone);
    if (instant === undefined) {
      instant = sameWallClockIn(at, from, zone).getTime();
      instants.set(zone, instant);
    }
    byInstant.get(instant)?.push(person) ?? byInstant.set(instant, [person]);
  }
  return [...byInstant.entries()]
    .sort(([a], [b]) => a - b)
    .map(([instant, group]) => ({ at: new Date(instant), people: group }));
}
