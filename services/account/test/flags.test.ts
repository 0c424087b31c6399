import { describe, expect, it } from "@jest/globals";
import { DEFAULT_ENABLED_FLAGS, defaultGlobalFlags, FLAG_NAMES, resolveFlags } from "../src/domain/flags";

describe("feature flags", () => {
  it("seeds every flag of spec section 6 exactly once", () => {
    const seeded = defaultGlobalFlags();
    expect(seeded).toHaveLength(29);
    expect(new Set(seeded.map((flag) => flag.name)).size).toBe(29);
    expect(seeded.map((flag) => flag.name)).toEqual([...FLAG_NAMES]);
    for (const name of DEFAULT_ENABLED_FLAGS) expect(FLAG_NAMES).toContain(name);
  });

  it("enables the chosen defaults and disables the rest", () => {
    const flags = resolveFlags(defaultGlobalFlags(), []);
    expect(flags.enabledFeatures).toEqual(
      [
        "automation",
        "content_calendar",
        "customer_view",
        "dashboard_view",
        "image_generation_basic",
        "leads_form",
        "new_email",
        "new_sidebar",
        "segment_view",
        "sidebar_v2",
        "visual_designer",
      ].sort(),
    );
    expect(flags.disabledFeatures).toContain("shopify_integration");
    expect(flags.disabledFeatures).toContain("test");
    expect(flags.enabledFeatures.length + flags.disabledFeatures.length).toBe(29);
    expect(flags.allFeatures).toEqual([...FLAG_NAMES].sort());
  });

  it("lets a user override turn a flag on or off", () => {
    const flags = resolveFlags(defaultGlobalFlags(), [
      { flag: "shopify_integration", enabled: true },
      { flag: "dashboard_view", enabled: false },
    ]);
    expect(flags.enabledFeatures).toContain("shopify_integration");
    expect(flags.disabledFeatures).not.toContain("shopify_integration");
    expect(flags.disabledFeatures).toContain("dashboard_view");
    expect(flags.enabledFeatures).not.toContain("dashboard_view");
  });

  it("never lists a flag as both enabled and disabled", () => {
    const flags = resolveFlags(
      [
        { name: "a", enabled: true },
        { name: "b", enabled: false },
      ],
      [
        { flag: "a", enabled: false },
        { flag: "a", enabled: true },
        { flag: "b", enabled: true },
      ],
    );
    expect(flags).toEqual({ enabledFeatures: ["a", "b"], disabledFeatures: [], allFeatures: ["a", "b"] });
  });

  it("ignores overrides of unknown flags and keeps operator-added global flags", () => {
    const flags = resolveFlags(
      [
        { name: "zeta", enabled: false },
        { name: "alpha", enabled: true },
      ],
      [{ flag: "ghost", enabled: true }],
    );
    expect(flags.allFeatures).toEqual(["alpha", "zeta"]);
    expect(flags.enabledFeatures).toEqual(["alpha"]);
    expect(flags.disabledFeatures).toEqual(["zeta"]);
  });
});
