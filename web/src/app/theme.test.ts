import { describe, expect, it } from "@jest/globals";
import { THEMES, themeFor } from "./theme";

describe("themeFor", () => {
  it("keeps the look as it is for a user who did not ask for less motion", () => {
    expect(themeFor("dark", false)).toBe(THEMES.dark);
  });

  it("turns antd's motion off for a user who prefers reduced motion, keeping the look's colours", () => {
    const theme = themeFor("light", true);
    expect(theme.token?.motion).toBe(false);
    expect(theme.token?.colorPrimary).toBe(THEMES.light.token?.colorPrimary);
    expect(theme.algorithm).toBe(THEMES.light.algorithm);
    expect(THEMES.light.token?.motion).toBeUndefined();
  });
});
