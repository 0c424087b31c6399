import { describe, expect, it } from "@jest/globals";
import { mrrCentsOf, mrrSeries } from "../src/domain/mrr";

describe("MRR (issue 14, Admin's charts)", () => {
  it("counts a live plan's monthly price, a yearly plan's charge / 12, nothing else", () => {
    expect(mrrCentsOf("CoreMonthly_v1", true)).toBe(2900);
    expect(mrrCentsOf("CoreYearly_v1", true)).toBe(2417);
    expect(mrrCentsOf("ProMonthly", true)).toBe(5900);
    expect(mrrCentsOf("ProYearly", true)).toBe(4917);
    expect(mrrCentsOf("ProMonthly", false)).toBe(0);
    expect(mrrCentsOf("", true)).toBe(0);
    expect(mrrCentsOf("Enterprise", true)).toBe(0);
  });

  it("sums each user's latest state at each day's end (UTC)", () => {
    const at = (iso: string) => new Date(iso);
    const series = mrrSeries(
      [
        { userId: "a", at: at("2026-11-02T10:00:00Z"), mrrCents: 2900 },
        { userId: "b", at: at("2026-11-03T23:59:59Z"), mrrCents: 4917 },
        // a upgrades, then cancels; the order stored does not matter
        { userId: "a", at: at("2026-11-05T00:00:00Z"), mrrCents: 0 },
        { userId: "a", at: at("2026-11-04T08:00:00Z"), mrrCents: 5900 },
      ],
      ["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "not-a-day"],
    );
    expect(series).toEqual([
      { day: "2026-11-01", mrrCents: 0 },
      { day: "2026-11-02", mrrCents: 2900 },
      { day: "2026-11-03", mrrCents: 2900 + 4917 },
      { day: "2026-11-04", mrrCents: 5900 + 4917 },
      { day: "2026-11-05", mrrCents: 4917 },
      { day: "not-a-day", mrrCents: 0 },
    ]);
  });
});
