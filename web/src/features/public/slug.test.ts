import { describe, expect, it } from "@jest/globals";
import { suggestSlug } from "./slug";

describe("suggestSlug", () => {
  it.each([
    ["Bake real bread!", "bake-real-bread"],
    ["  Café  Crème  2026 ", "cafe-creme-2026"],
    ["Pricing", ""],
    ["--", ""],
    ["ab", ""],
    [`${"word ".repeat(20)}end`, "word-word-word-word-word-word-word-word-word-word-word-word"],
  ])("%s → %s", (name, slug) => {
    expect(suggestSlug(name)).toBe(slug);
  });
});
