import { describe, expect, it } from "@jest/globals";
import { creditsLabel } from "./format";

describe("creditsLabel", () => {
  it("says 1 credit, and credits for every other count", () => {
    expect(creditsLabel(1)).toBe("1 credit");
    expect(creditsLabel(0)).toBe("0 credits");
    expect(creditsLabel(2)).toBe("2 credits");
    expect(creditsLabel(20)).toBe("20 credits");
  });
});
