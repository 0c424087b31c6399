import { describe, expect, it } from "@jest/globals";
import { countLabel, creditsLabel, formatNumber, formatUsd } from "./format";

describe("creditsLabel", () => {
  it("says 1 credit, and credits for every other count", () => {
    expect(creditsLabel(1)).toBe("1 credit");
    expect(creditsLabel(0)).toBe("0 credits");
    expect(creditsLabel(2)).toBe("2 credits");
    expect(creditsLabel(20)).toBe("20 credits");
  });
});

describe("countLabel", () => {
  it("puts the noun in the number the count needs, with grouped digits", () => {
    expect(countLabel(1, "contact")).toBe("1 contact");
    expect(countLabel(0, "contact")).toBe("0 contacts");
    expect(countLabel(2, "contact")).toBe("2 contacts");
    expect(countLabel(1200, "contact")).toBe("1,200 contacts");
    expect(countLabel(1, "entry", "entries")).toBe("1 entry");
    expect(countLabel(3, "entry", "entries")).toBe("3 entries");
    expect(countLabel(1.5, "day")).toBe("1.5 days");
    expect(creditsLabel(2500)).toBe("2,500 credits");
  });
});

describe("formatNumber", () => {
  it("groups thousands the same way everywhere", () => {
    expect([1000, 4000, 5000, 20000, 1234567, 0].map(formatNumber)).toEqual([
      "1,000",
      "4,000",
      "5,000",
      "20,000",
      "1,234,567",
      "0",
    ]);
  });
});

describe("formatUsd", () => {
  it("shows whole dollars without cents, other amounts with two decimals, grouped", () => {
    expect([29, 24.17, 290.04, 1200, 70, 0.5].map(formatUsd)).toEqual([
      "$29",
      "$24.17",
      "$290.04",
      "$1,200",
      "$70",
      "$0.50",
    ]);
  });
});
