import { describe, expect, it } from "@jest/globals";
import {
  canMove,
  canUnschedule,
  DEFAULT_CALENDAR_COLUMNS,
  formatRate,
  fromCalendarTime,
  hasFailedChannel,
  initialMode,
  isoToLocalInput,
  localInputToIso,
  PUBLISHING_REFRESH_MS,
  rangeQuery,
  socialRefreshMs,
  toCalendarTime,
  toggleCalendarColumn,
  visibleCalendarColumns,
} from "./calendar-logic";

describe("the list view's columns", () => {
  it("shows the spec's defaults until a choice is saved, in the spec's order", () => {
    expect(visibleCalendarColumns(undefined)).toEqual([...DEFAULT_CALENDAR_COLUMNS]);
    expect(visibleCalendarColumns(["status", "title", "unknown"])).toEqual(["title", "status"]);
    expect(visibleCalendarColumns(["unknown"])).toEqual([...DEFAULT_CALENDAR_COLUMNS]);
  });

  it("turns columns on and off, keeping at least one", () => {
    expect(toggleCalendarColumn(["title"], "id", true)).toEqual(["id", "title"]);
    expect(toggleCalendarColumn(undefined, "open_rate", false)).not.toContain("open_rate");
    expect(toggleCalendarColumn(["title"], "title", false)).toEqual(["title"]);
  });
});

describe("calendar helpers", () => {
  it("shows rates as percentages", () => {
    expect(formatRate(0.4567)).toBe("45.7%");
    expect(formatRate(1)).toBe("100.0%");
    expect(formatRate(undefined)).toBe("—");
  });

  it("lets crafts move until published and campaigns while scheduled", () => {
    expect(canMove({ status: "due" })).toBe(true);
    expect(canMove({ status: "published" })).toBe(false);
    expect(canMove({ campaignId: "c", status: "scheduled" })).toBe(true);
    expect(canMove({ campaignId: "c", status: "sent" })).toBe(false);
  });

  it("asks for the visible range", () => {
    const q = rangeQuery(new Date("2026-11-01T00:00:00Z"), new Date("2026-12-13T00:00:00Z"), "p1");
    expect(q).toBe("/api/calendar?from=2026-11-01T00%3A00%3A00.000Z&to=2026-12-13T00%3A00%3A00.000Z&projectId=p1");
  });

  it("reads and writes datetime-local values on the business's wall clock, whatever the browser's zone", () => {
    expect(localInputToIso("2026-11-25T10:30", "America/Los_Angeles")).toBe("2026-11-25T18:30:00.000Z");
    expect(localInputToIso("2026-11-25T10:30", "UTC")).toBe("2026-11-25T10:30:00.000Z");
    expect(isoToLocalInput(new Date("2026-11-25T18:30:00.000Z"), "America/Los_Angeles")).toBe("2026-11-25T10:30");
    expect(localInputToIso("25/11/2026", "Europe/London")).toBeNull();
  });

  it("shows the business's days and hours on the grid, and a drop across the clock change lands on local time", () => {
    const la = "America/Los_Angeles";
    // 23:30 on 8 March in Los Angeles (06:30 UTC on the 9th) sits on the grid's 8 March at 23:30.
    expect(toCalendarTime(new Date("2026-03-09T06:30:00Z"), la)).toBe("2026-03-08T23:30:00Z");
    // Dragged from Saturday 7 March 09:00 (PST) to Sunday 8 March 09:00 (PDT): 16:00 UTC, not 17:00.
    expect(fromCalendarTime(new Date("2026-03-08T09:00:00Z"), la).toISOString()).toBe("2026-03-08T16:00:00.000Z");
    expect(fromCalendarTime(new Date("2026-03-07T09:00:00Z"), la).toISOString()).toBe("2026-03-07T17:00:00.000Z");
    // London: the grid's 30 March 00:00 is 23:00 UTC on the 29th (BST).
    expect(fromCalendarTime(new Date("2026-03-30T00:00:00Z"), "Europe/London").toISOString()).toBe(
      "2026-03-29T23:00:00.000Z",
    );
  });

  it("opens the list on phones", () => {
    expect(initialMode("calendar", 390)).toBe("list");
    expect(initialMode("calendar", 1280)).toBe("calendar");
    expect(initialMode("list", 1280)).toBe("list");
  });
});

describe("canUnschedule", () => {
  it("offers Unschedule on scheduled campaigns and on crafts, never on a campaign that is sending or sent", () => {
    expect(canUnschedule({ campaignId: "c", status: "scheduled" })).toBe(true);
    for (const status of ["sending", "sent", "failed"] as const) {
      expect([status, canUnschedule({ campaignId: "c", status })]).toEqual([status, false]);
    }
    expect(canUnschedule({ status: "due" })).toBe(true);
    expect(canUnschedule({ status: "published" })).toBe(true);
  });
});

describe("a social post on the calendar", () => {
  const at = new Date("2026-11-28T10:00:00Z");
  const entry = (minutes: number, ...states: ("scheduled" | "publishing" | "published" | "failed")[]) => ({
    dateTime: new Date(at.getTime() + minutes * 60_000).toISOString(),
    channels: states.map((state, i) => ({
      channelId: `facebook_page:${i}`,
      kind: "facebook_page" as const,
      name: `Page ${i}`,
      state,
      permalink: "",
      reason: "",
      attempts: 0,
    })),
  });

  it("polls every few seconds only while a post publishes or its time has just come", () => {
    expect(socialRefreshMs([entry(-1, "published", "publishing")], at)).toBe(PUBLISHING_REFRESH_MS);
    expect(socialRefreshMs([entry(-1, "scheduled")], at)).toBe(PUBLISHING_REFRESH_MS);
    // Waits for the next one due soon, just after its time; not for one far ahead or long overdue.
    expect(socialRefreshMs([entry(2, "scheduled")], at)).toBe(121_000);
    expect(socialRefreshMs([entry(60, "scheduled"), entry(-60, "scheduled")], at)).toBe(0);
    expect(socialRefreshMs([entry(-1, "published", "failed")], at)).toBe(0);
    expect(socialRefreshMs([{ dateTime: at.toISOString(), channels: [] }], at)).toBe(0);
    expect(socialRefreshMs(undefined, at)).toBe(0);
  });

  it("moves until a channel started, and stands out when a channel failed", () => {
    expect(canMove({ status: "scheduled", ...entry(5, "scheduled", "scheduled") })).toBe(true);
    expect(canMove({ status: "sending", ...entry(-1, "publishing", "scheduled") })).toBe(false);
    expect(canMove({ status: "failed", ...entry(-1, "failed") })).toBe(false);
    expect(hasFailedChannel(entry(-1, "published", "failed"))).toBe(true);
    expect(hasFailedChannel(entry(-1, "published"))).toBe(false);
  });
});
