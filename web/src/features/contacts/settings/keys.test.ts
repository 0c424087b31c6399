import { describe, expect, it } from "@jest/globals";
import { cleanOptions, keyFromLabel, labelProblem } from "./keys";

describe("settings list keys", () => {
  it("makes a key from a label", () => {
    expect(keyFromLabel("Shoe size (EU)", [])).toBe("shoe_size_eu");
    expect(keyFromLabel("Café client", [])).toBe("cafe_client");
    expect(keyFromLabel("2024 cohort", [])).toBe("f_2024_cohort");
    expect(keyFromLabel("!!!", [])).toBe("field");
  });

  it("keeps keys unique", () => {
    expect(keyFromLabel("VIP", ["vip"])).toBe("vip_2");
    expect(keyFromLabel("VIP", ["vip", "vip_2"])).toBe("vip_3");
  });

  it("checks labels", () => {
    expect(labelProblem("  ", [])).toBe("A name is required");
    expect(labelProblem("x".repeat(61), [])).toBe("At most 60 characters");
    expect(labelProblem("Call", ["call"])).toBe("This name is taken");
    expect(labelProblem("Meeting", ["Call"])).toBeNull();
  });

  it("cleans select options", () => {
    expect(cleanOptions([" S ", "M", "", "S", "L"])).toEqual(["S", "M", "L"]);
  });
});
