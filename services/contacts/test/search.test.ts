import { describe, expect, it } from "@jest/globals";
import { queryTokens, searchTokens, words } from "../src/domain/search";

describe("search tokens", () => {
  it("folds case and accents and splits on anything but letters and digits", () => {
    expect(words("Zoë O'Brien-Smith")).toEqual(["zoe", "o", "brien", "smith"]);
  });
  it("stores each word's prefixes so a query word finds by equality", () => {
    const tokens = searchTokens(["Johanna", "Müller", "ACME Bikes"], "Jo.Muller@Example.com");
    for (const query of ["jo", "joh", "johanna", "mul", "muller", "acme", "bik", "jo.muller@example.com"]) {
      expect(tokens).toContain(queryTokens(query)[0]);
    }
    expect(tokens).not.toContain("j");
  });
  it("puts the longest query word first and treats a whole address as one token", () => {
    expect(queryTokens("  jo MULLER ")).toEqual(["muller", "jo"]);
    expect(queryTokens("Ada@Example.com")).toEqual(["ada@example.com"]);
    expect(queryTokens("   ")).toEqual([]);
  });
});
