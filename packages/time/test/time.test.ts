import { describe, expect, it } from "@jest/globals";
import {
  addDays,
  canonicalTimeZone,
  dayIn,
  dayRangeIn,
  daysFrom,
  earliestWallClockAnywhere,
  instantAt,
  isDay,
  isTimeOfDay,
  monthDayOf,
  nextTimeOfDay,
  offsetLabel,
  releaseGroups,
  sameWallClockIn,
  startOfDayIn,
  timeZones,
  UTC,
  wallClockIn,
  zoneLabel,
  zoneOrUtc,
} from "../src";

const LONDON = "Europe/London";
const LA = "America/Los_Angeles";
const iso = (text: string) => new Date(text);
const HOUR = 3_600_000;

describe("time zone names", () => {
  it("accepts IANA names the runtime lists, and UTC", () => {
    expect(canonicalTimeZone(LONDON)).toBe(LONDON);
    expect(canonicalTimeZone(LA)).toBe(LA);
    expect(canonicalTimeZone("UTC")).toBe("UTC");
    expect(timeZones()).toContain(LONDON);
    expect(timeZones()).toContain(UTC);
  });

  it("refuses offsets, garbage, empty and non-text input", () => {
    for (const bad of ["+01:00", "GMT+1", "Mars/Olympus_Mons", "", " Europe/London", "../etc", 42, null, undefined])
      expect(canonicalTimeZone(bad)).toBeNull();
    expect(zoneOrUtc("Not/AZone")).toBe(UTC);
    expect(zoneOrUtc(undefined)).toBe(UTC);
    expect(zoneOrUtc("")).toBe(UTC);
  });
});

describe("local days", () => {
  it("puts 23:30 local in the local day, not the UTC one ('due today')", () => {
    // 23:30 in Los Angeles on 8 March 2026 (after the change to PDT) is 06:30 UTC on the 9th.
    const late = instantAt("2026-03-08T23:30", LA)!;
    expect(late.toISOString()).toBe("2026-03-09T06:30:00.000Z");
    expect(dayIn(late, LA)).toBe("2026-03-08");
    expect(dayIn(late, UTC)).toBe("2026-03-09");
    // And 23:30 in London on 29 March 2026 (BST) is 22:30 UTC the same day; 00:30 BST is the 28th in UTC.
    expect(dayIn(instantAt("2026-03-29T23:30", LONDON)!, LONDON)).toBe("2026-03-29");
    const early = instantAt("2026-03-30T00:30", LONDON)!;
    expect(early.toISOString()).toBe("2026-03-29T23:30:00.000Z");
    expect(dayIn(early, LONDON)).toBe("2026-03-30");
  });

  it("gives a daylight-saving day its real length", () => {
    const spring = dayRangeIn("2026-03-29", LONDON);
    expect(spring.start.toISOString()).toBe("2026-03-29T00:00:00.000Z");
    expect(spring.end.toISOString()).toBe("2026-03-29T23:00:00.000Z");
    const la = dayRangeIn("2026-03-08", LA);
    expect(la.start.toISOString()).toBe("2026-03-08T08:00:00.000Z");
    expect((la.end.getTime() - la.start.getTime()) / HOUR).toBe(23);
    const autumn = dayRangeIn("2026-10-25", LONDON);
    expect((autumn.end.getTime() - autumn.start.getTime()) / HOUR).toBe(25);
    expect(startOfDayIn("2026-03-08", UTC).toISOString()).toBe("2026-03-08T00:00:00.000Z");
  });

  it("counts calendar days across month and year ends", () => {
    expect(addDays("2026-02-28", 1)).toBe("2026-03-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-01-01", -1)).toBe("2025-12-31");
    expect(daysFrom("2026-03-28", "2026-03-30")).toEqual(["2026-03-28", "2026-03-29", "2026-03-30"]);
    expect(daysFrom("2026-03-30", "2026-03-28")).toEqual([]);
    expect(monthDayOf("2026-03-08")).toBe("03-08");
    expect(isDay("2026-02-29")).toBe(false);
    expect(isDay("2028-02-29")).toBe(true);
    expect(isDay("2026-3-8")).toBe(false);
  });

  it("sees a birthday's local day once in an hourly scan across the change (date-field trigger)", () => {
    for (const [zone, day] of [
      [LA, "2026-03-08"],
      [LONDON, "2026-03-29"],
    ] as const) {
      // A scan every hour from two days before to two days after: the hours whose local day is the
      // birthday are exactly that local day's hours (23 of them), and they all name one day.
      const start = startOfDayIn(addDays(day, -2), zone).getTime();
      const hits: string[] = [];
      for (let t = start; t < start + 5 * 24 * HOUR; t += HOUR) {
        const local = dayIn(new Date(t), zone);
        if (monthDayOf(local) === monthDayOf(day)) hits.push(local);
      }
      expect(hits).toHaveLength(23);
      expect(new Set(hits)).toEqual(new Set([day]));
    }
  });
});

describe("wall-clock times", () => {
  it("reads and writes local wall clocks", () => {
    const at = iso("2026-07-01T08:00:00Z");
    expect(wallClockIn(at, LONDON)).toBe("2026-07-01T09:00:00");
    expect(wallClockIn(at, LA)).toBe("2026-07-01T01:00:00");
    expect(instantAt("2026-07-01T09:00", LONDON)).toEqual(at);
    expect(instantAt("2026-07-01T09:00:00", UTC)?.toISOString()).toBe("2026-07-01T09:00:00.000Z");
  });

  it("moves a time the clocks skip forward by the gap, and refuses non-times", () => {
    // 01:30 does not exist in London on 29 March 2026: it is 02:30 BST (01:30 UTC).
    expect(instantAt("2026-03-29T01:30", LONDON)?.toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(instantAt("2026-02-30T09:00", LONDON)).toBeNull();
    expect(instantAt("tomorrow at nine", LONDON)).toBeNull();
    expect(instantAt("2026-03-29", LONDON)).toBeNull();
  });

  it("labels a zone with its offset at that instant", () => {
    expect(offsetLabel(iso("2026-01-15T12:00:00Z"), LONDON)).toBe("GMT");
    expect(offsetLabel(iso("2026-07-15T12:00:00Z"), LONDON)).toBe("GMT+1");
    expect(offsetLabel(iso("2026-07-15T12:00:00Z"), LA)).toBe("GMT-7");
    expect(zoneLabel(LA, iso("2026-01-15T12:00:00Z"))).toBe("America/Los Angeles (GMT-8)");
  });
});

describe("waits until a time of day", () => {
  it("lands at 09:00 local after the clocks go forward (London, last Sunday of March)", () => {
    // Set on Saturday 28 March 2026 at 10:00 GMT: Sunday's 09:00 is BST, 08:00 UTC, 22 hours later.
    const set = iso("2026-03-28T10:00:00Z");
    const due = nextTimeOfDay(set, "09:00", LONDON);
    expect(due.toISOString()).toBe("2026-03-29T08:00:00.000Z");
    expect(wallClockIn(due, LONDON)).toBe("2026-03-29T09:00:00");
    expect((due.getTime() - set.getTime()) / HOUR).toBe(22);
  });

  it("lands at 09:00 local after the clocks go forward (Los Angeles, second Sunday of March)", () => {
    // Set on Saturday 7 March 2026 at 12:00 PST (20:00 UTC): Sunday's 09:00 is PDT, 16:00 UTC.
    const set = iso("2026-03-07T20:00:00Z");
    const due = nextTimeOfDay(set, "09:00", LA);
    expect(due.toISOString()).toBe("2026-03-08T16:00:00.000Z");
    expect(wallClockIn(due, LA)).toBe("2026-03-08T09:00:00");
    // The Saturday before, 09:00 PST was 17:00 UTC.
    expect(nextTimeOfDay(iso("2026-03-06T20:00:00Z"), "09:00", LA).toISOString()).toBe("2026-03-07T17:00:00.000Z");
  });

  it("waits for later today when the time has not come, and for tomorrow at or after it", () => {
    expect(nextTimeOfDay(iso("2026-07-01T07:00:00Z"), "09:00", LONDON).toISOString()).toBe("2026-07-01T08:00:00.000Z");
    expect(nextTimeOfDay(iso("2026-07-01T08:00:00Z"), "09:00", LONDON).toISOString()).toBe("2026-07-02T08:00:00.000Z");
    expect(nextTimeOfDay(iso("2026-07-01T23:59:00Z"), "00:00", UTC).toISOString()).toBe("2026-07-02T00:00:00.000Z");
    expect(isTimeOfDay("9:00")).toBe(false);
    expect(isTimeOfDay("24:00")).toBe(false);
    expect(() => nextTimeOfDay(new Date(), "25:00", LONDON)).toThrow(RangeError);
  });
});

describe("the same wall clock in each contact's own zone", () => {
  it("releases 09:00 London at 09:00 in Los Angeles across both March changes", () => {
    // Sunday 8 March 2026: Los Angeles has gone to PDT (UTC-7), London is still on GMT.
    const london9 = instantAt("2026-03-08T09:00", "Europe/London")!;
    expect(london9).toEqual(new Date("2026-03-08T09:00:00Z"));
    expect(sameWallClockIn(london9, "Europe/London", "America/Los_Angeles")).toEqual(new Date("2026-03-08T16:00:00Z"));
    // The Saturday before, LA was on PST (UTC-8): eight hours, not seven.
    const saturday = instantAt("2026-03-07T09:00", "Europe/London")!;
    expect(sameWallClockIn(saturday, "Europe/London", "America/Los_Angeles")).toEqual(new Date("2026-03-07T17:00:00Z"));
    // Sunday 29 March 2026 London goes to BST: 09:00 there is 08:00 UTC, LA 09:00 PDT is 16:00 UTC.
    const bst = instantAt("2026-03-29T09:00", "Europe/London")!;
    expect(bst).toEqual(new Date("2026-03-29T08:00:00Z"));
    expect(sameWallClockIn(bst, "Europe/London", "America/Los_Angeles")).toEqual(new Date("2026-03-29T16:00:00Z"));
    // The other way: 09:00 LA on Saturday 28 March is released at 09:00 in London, still GMT that day.
    const la = instantAt("2026-03-28T09:00", "America/Los_Angeles")!;
    expect(sameWallClockIn(la, "America/Los_Angeles", "Europe/London")).toEqual(new Date("2026-03-28T09:00:00Z"));
  });

  it("moves a wall clock the contact's zone skips forward by the gap", () => {
    // 01:30 on 29 March 2026 does not exist in London (01:00 → 02:00): it is 02:30 BST, 01:30 UTC.
    const tokyo = instantAt("2026-03-29T01:30", "Asia/Tokyo")!;
    expect(sameWallClockIn(tokyo, "Asia/Tokyo", "Europe/London")).toEqual(new Date("2026-03-29T01:30:00Z"));
    // 02:30 on 8 March 2026 does not exist in Los Angeles: 03:30 PDT, 10:30 UTC.
    const utc = new Date("2026-03-08T02:30:00Z");
    expect(sameWallClockIn(utc, "UTC", "America/Los_Angeles")).toEqual(new Date("2026-03-08T10:30:00Z"));
  });

  it("finds the earliest release anywhere (UTC+14)", () => {
    const at = instantAt("2026-03-29T09:00", "Europe/London")!;
    expect(earliestWallClockAnywhere(at, "Europe/London")).toEqual(new Date("2026-03-28T19:00:00Z"));
  });

  it("groups contacts by their release instant, the zoneless ones at the business's own", () => {
    const at = instantAt("2026-03-29T09:00", "Europe/London")!;
    const people = [
      { id: "a", zone: "America/Los_Angeles" },
      { id: "b", zone: "" },
      { id: "c", zone: "US/Pacific" },
      { id: "d", zone: "Europe/Lisbon" },
      { id: "e", zone: "Not/AZone" },
      { id: "f", zone: "Asia/Kolkata" },
    ];
    const groups = releaseGroups(people, (p) => p.zone, at, "Europe/London");
    expect(groups.map((g) => [g.at.toISOString(), g.people.map((p) => p.id)])).toEqual([
      ["2026-03-29T03:30:00.000Z", ["f"]],
      // Lisbon shares London's clock that day: one group.
      ["2026-03-29T08:00:00.000Z", ["b", "d", "e"]],
      ["2026-03-29T16:00:00.000Z", ["a", "c"]],
    ]);
  });
});
