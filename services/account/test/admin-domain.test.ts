import { describe, expect, it } from "@jest/globals";
import { queryTokens, searchTokensOf } from "../src/domain/search-tokens";
import { creditFact, dailySeries } from "../src/domain/stats";

describe("search tokens", () => {
  it("indexes an email's parts and a name's words for equality search", () => {
    expect(searchTokensOf("Jane.Doe+news@Shop.example", "Jane  Doe")).toEqual([
      "jane.doe+news@shop.example",
      "jane.doe+news",
      "shop.example",
      "jane",
      "doe",
      "news",
    ]);
    expect(queryTokens(" Jane, DOE  ")).toEqual(["jane", "doe"]);
    expect(queryTokens("")).toEqual([]);
  });
});

describe("daily series", () => {
  it("folds sign-ups and facts into UTC days, oldest first, with empty days", () => {
    const now = new Date("2026-11-22T10:00:00Z");
    const rows = dailySeries(
      now,
      3,
      [new Date("2026-11-20T23:59:00Z"), new Date("2026-11-22T00:01:00Z"), new Date("2026-11-19T12:00:00Z")],
      [
        { kind: "craft", amount: 1, at: new Date("2026-11-21T05:00:00Z") },
        creditFact("grant", 50, new Date("2026-11-21T06:00:00Z"))!,
        creditFact("debit", -3, new Date("2026-11-22T06:00:00Z"))!,
        creditFact("refund", 3, new Date("2026-11-22T07:00:00Z"))!,
      ],
    );
    expect(rows).toEqual([
      { day: "2026-11-20", signups: 1, crafts: 0, creditsGranted: 0, creditsSpent: 0 },
      { day: "2026-11-21", signups: 0, crafts: 1, creditsGranted: 50, creditsSpent: 0 },
      { day: "2026-11-22", signups: 1, crafts: 0, creditsGranted: 0, creditsSpent: 0 },
    ]);
  });
});
