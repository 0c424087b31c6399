import { describe, expect, it } from "@jest/globals";
import {
  canMove,
  DEFAULT_CALENDAR_COLUMNS,
  formatRate,
  initialMode,
  isoToLocalInput,
  localInputToIso,
  rangeQuery,
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

  it("reads and writes datetime-local values in the browser's zone", () => {
    const iso = localInputToIso("2026-11-25T10:30");
    expect(iso).not.toBeNull();
    expect(isoToLocalInput(new Date(iso!))).toBe("2026-11-25T10:30");
    expect(localInputToIso("25/11/2026")).toBeNull();
  });

  it("opens the list on phones", () => {
    expect(initialMode("calendar", 390)).toBe("list");
    expect(initialMode("calendar", 1280)).toBe("calendar");
    expect(initialMode("list", 1280)).toBe("list");
  });
});
