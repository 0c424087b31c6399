import { DEFAULT_SETTINGS } from "@crafter/validation";
import { describe, expect, it } from "@jest/globals";
import { effectiveSettings, UNKNOWN_SETTING_MESSAGE, validateSettingsPatch } from "../src/domain/settings";

describe("effective settings", () => {
  it("has every default of spec section 3 when nothing is stored", () => {
    const settings = effectiveSettings(undefined);
    expect(settings).toEqual({
      theme: "light",
      viewMode: "list",
      fastGeneration: false,
      leftSidebarOpen: true,
      rightSidebarOpen: true,
      rightSidebarWidth: "medium",
      customerProfileColumns: ["name", "email", "customerSince", "updated_on", "tags", "action"],
      contentCalendarColumns: [
        "id",
        "title",
        "type",
        "status",
        "date_time",
        "delivery_rate",
        "bounce_rate",
        "open_rate",
        "click_rate",
        "action",
      ],
      contentCalendarViewMode: "calendar",
      onboardingSkipped: false,
      activeTemplateType: "predefinedTemplates",
    });
  });

  it("overlays stored values, keeps false, and ignores empty and unknown stored keys", () => {
    const settings = effectiveSettings({
      theme: "dark",
      leftSidebarOpen: false,
      viewMode: "",
      customerProfileColumns: [],
      retired: "x",
    });
    expect(settings.theme).toBe("dark");
    expect(settings.leftSidebarOpen).toBe(false);
    expect(settings.viewMode).toBe("list");
    expect(settings.customerProfileColumns).toEqual(DEFAULT_SETTINGS.customerProfileColumns);
    expect(settings).not.toHaveProperty("retired");
  });

  it("does not hand out the frozen defaults' arrays", () => {
    const settings = effectiveSettings({});
    settings.customerProfileColumns.push("x");
    expect(DEFAULT_SETTINGS.customerProfileColumns).not.toContain("x");
  });
});

describe("settings patch validation", () => {
  it("accepts valid values, trims strings and de-duplicates columns", () => {
    const result = validateSettingsPatch({
      theme: " dark ",
      fastGeneration: true,
      rightSidebarOpen: false,
      rightSidebarWidth: "320px",
      customerProfileColumns: ["name", " email ", "name"],
    });
    expect(result).toEqual({
      ok: true,
      patch: {
        theme: "dark",
        fastGeneration: true,
        rightSidebarOpen: false,
        rightSidebarWidth: "320px",
        customerProfileColumns: ["name", "email"],
      },
    });
  });

  it("ignores empty values (undefined, null, blank strings, empty lists)", () => {
    expect(
      validateSettingsPatch({ theme: "", viewMode: "   ", activeTemplateType: null, contentCalendarColumns: [] }),
    ).toEqual({ ok: true, patch: {} });
  });

  it("rejects a theme other than light or dark", () => {
    const result = validateSettingsPatch({ theme: "blue" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.fields.theme).toMatch(/light, dark/);
  });

  it("rejects non-boolean booleans, even 'true' as a string", () => {
    const result = validateSettingsPatch({ fastGeneration: "true", onboardingSkipped: 1 });
    expect(result).toEqual({
      ok: false,
      fields: {
        fastGeneration: "Fast generation must be true or false",
        onboardingSkipped: "Onboarding skipped must be true or false",
      },
    });
  });

  it("rejects unknown keys, and reports every bad field at once", () => {
    const result = validateSettingsPatch({ theme: "dark", color: "red", __proto__x: 1, viewMode: 3 });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.fields.color).toBe(UNKNOWN_SETTING_MESSAGE);
      expect(result.fields.__proto__x).toBe(UNKNOWN_SETTING_MESSAGE);
      expect(result.fields.viewMode).toBeDefined();
      expect(result.fields.theme).toBeUndefined();
    }
  });

  it("rejects keys that could address nested or operator paths", () => {
    const result = validateSettingsPatch({ "theme.x": "dark", $set: "x", constructor: "x" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(Object.keys(result.fields).sort()).toEqual(["$set", "constructor", "theme.x"]);
  });

  it("rejects malformed column lists", () => {
    expect(validateSettingsPatch({ customerProfileColumns: "name" }).ok).toBe(false);
    expect(validateSettingsPatch({ customerProfileColumns: ["name", 3] }).ok).toBe(false);
    expect(validateSettingsPatch({ customerProfileColumns: ["name", ""] }).ok).toBe(false);
    expect(validateSettingsPatch({ customerProfileColumns: Array.from({ length: 51 }, (_, i) => `c${i}`) }).ok).toBe(
      false,
    );
  });

  it("merged over stored settings, a partial update never wipes other settings", () => {
    const stored = { theme: "dark", viewMode: "grid" };
    const result = validateSettingsPatch({ viewMode: "", leftSidebarOpen: false });
    expect(result.ok).toBe(true);
    if (result.ok) {
      const merged = effectiveSettings({ ...stored, ...result.patch });
      expect(merged.theme).toBe("dark");
      expect(merged.viewMode).toBe("grid");
      expect(merged.leftSidebarOpen).toBe(false);
    }
  });
});
