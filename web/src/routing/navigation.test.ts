import { describe, expect, it } from "@jest/globals";
import { flagAllows } from "../api/flags";
import { arrangeMenu } from "./navigation";
import type { MenuEntry } from "./route-types";

const entry = (testId: string, parent?: string): MenuEntry => ({ group: "main", label: testId, testId, parent });

describe("the spec's navigation", () => {
  it("orders the main entries as the spec does and nests Contacts' children", () => {
    const declared = [
      entry("nav-business"),
      entry("nav-segments", "nav-contacts"),
      entry("nav-assets"),
      entry("nav-offerings"),
      entry("nav-contacts"),
      entry("nav-lead-assistant", "nav-contacts"),
      entry("nav-dashboard"),
      entry("nav-strategy"),
      entry("nav-lead-form", "nav-contacts"),
      entry("nav-campaigns"),
      entry("nav-contents"),
    ];
    const items = arrangeMenu("main", declared);
    expect(items.map((item) => item.entry.testId)).toEqual([
      "nav-dashboard",
      "nav-contents",
      "nav-campaigns",
      "nav-contacts",
      "nav-strategy",
      "nav-offerings",
      "nav-business",
      "nav-assets",
    ]);
    expect(items[3]!.children.map((child) => child.testId)).toEqual([
      "nav-segments",
      "nav-lead-form",
      "nav-lead-assistant",
    ]);
  });

  it("keeps a child whose parent is hidden on its own", () => {
    expect(arrangeMenu("main", [entry("nav-segments", "nav-contacts")]).map((i) => i.entry.testId)).toEqual([
      "nav-segments",
    ]);
  });

  it("orders the Create menu as the spec does", () => {
    const create = ["nav-create-smart-document", "nav-create-email", "nav-create-contact", "nav-create-campaign"].map(
      (testId) => ({ ...entry(testId), group: "create" as const }),
    );
    expect(arrangeMenu("create", create).map((item) => item.entry.testId)).toEqual([
      "nav-create-campaign",
      "nav-create-contact",
      "nav-create-email",
      "nav-create-smart-document",
    ]);
  });

  it("shows a flagged entry only when its flag is enabled and not disabled", () => {
    const flags = { enabledFeatures: ["automation", "content_calendar"], disabledFeatures: ["content_calendar"] };
    expect(flagAllows(undefined, null)).toBe(true);
    expect(flagAllows("automation", flags)).toBe(true);
    expect(flagAllows("content_calendar", flags)).toBe(false);
    expect(flagAllows("segment_view", flags)).toBe(false);
    expect(flagAllows("automation", null)).toBe(false);
  });
});
