import { describe, expect, it } from "@jest/globals";
import {
  dayOf,
  daysBetween,
  dueGroups,
  dueKey,
  dueTitle,
  finishedStatus,
  rangeProblem,
  statusOfCampaign,
  turnsDue,
  typeOfWorkflow,
} from "../src/domain/calendar-entries";

describe("calendar rules", () => {
  it("types a craft by its workflow, in either spelling", () => {
    expect(typeOfWorkflow("EmailWriter")).toBe("email");
    expect(typeOfWorkflow("email-writer")).toBe("email");
    expect(typeOfWorkflow("SocialMediaPostWriter")).toBe("social");
    expect(typeOfWorkflow("social-media-post-writer")).toBe("social");
    expect(typeOfWorkflow("BlogWriter")).toBe("blog");
    expect(typeOfWorkflow("PodcastWriter")).toBe("other");
    expect(turnsDue("email")).toBe(false);
    expect(["social", "blog", "other"].every((t) => turnsDue(t as "social"))).toBe(true);
  });

  it("works in UTC days", () => {
    expect(dayOf(new Date("2026-11-22T23:59:59Z"))).toBe("2026-11-22");
    expect(dayOf(new Date("2026-11-23T00:30:00+02:00"))).toBe("2026-11-22");
    expect(daysBetween("2026-02-27", "2026-03-02")).toEqual(["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02"]);
    expect(daysBetween("2026-03-02", "2026-03-02")).toEqual(["2026-03-02"]);
    expect(daysBetween("2026-03-03", "2026-03-02")).toEqual([]);
  });

  it("accepts ranges up to 62 days, from before to", () => {
    const from = new Date("2026-11-01T00:00:00Z");
    expect(rangeProblem(from, new Date("2027-01-02T00:00:00Z"))).toBeNull();
    expect(rangeProblem(from, new Date("2027-01-02T00:00:01Z"))).toEqual({
      field: "to",
      message: "The range is at most 62 days",
    });
    expect(rangeProblem(from, from)?.message).toBe("to must be after from");
    expect(rangeProblem(new Date("x"), from)?.field).toBe("from");
  });

  it("groups entries that turned due into one notification per user and day", () => {
    const groups = dueGroups([
      { userId: "a", day: "2026-11-22" },
      { userId: "b", day: "2026-11-22" },
      { userId: "a", day: "2026-11-22" },
      { userId: "a", day: "2026-11-21" },
    ]);
    expect(groups).toEqual([
      { userId: "a", day: "2026-11-22" },
      { userId: "b", day: "2026-11-22" },
      { userId: "a", day: "2026-11-21" },
    ]);
    expect(dueKey("a", "2026-11-22")).toBe("calendar-due:a:2026-11-22");
    expect(dueTitle(1)).toBe("1 post is due today");
    expect(dueTitle(3)).toBe("3 posts are due today");
  });

  it("shows a campaign's state", () => {
    expect(finishedStatus(10, 0)).toBe("sent");
    expect(finishedStatus(10, 2)).toBe("sent");
    expect(finishedStatus(0, 5)).toBe("failed");
    expect(statusOfCampaign("paused")).toBe("sending");
    expect(statusOfCampaign("draft")).toBe("scheduled");
    expect(statusOfCampaign("sent")).toBe("sent");
  });
});
