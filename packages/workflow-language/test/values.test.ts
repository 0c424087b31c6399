import { describe, expect, it } from "@jest/globals";
import { INPUT_KINDS, VALUE_SHAPES } from "../src/index";
import { emptyValueFor, isIsoDate, normalizeColor, valueShape } from "../src/values";

describe("value shapes (engine contract section 5)", () => {
  it("gives every input kind a shape, and its empty value", () => {
    expect(Object.keys(VALUE_SHAPES).sort()).toEqual([...INPUT_KINDS].sort());
    expect(valueShape("chipText")).toBe("list");
    expect(valueShape("slider")).toBe("number");
    expect(valueShape("dateRangePicker")).toBe("object");
    expect(valueShape("colorPicker")).toBe("text");
    expect([emptyValueFor("bulletPoint"), emptyValueFor("number"), emptyValueFor("url")]).toEqual([[], null, ""]);
  });

  it("holds one colour rule for the engine and the web: #rrggbb, lowercase", () => {
    expect(normalizeColor("#1F6FEB")).toBe("#1f6feb");
    expect(normalizeColor(" #AbC ")).toBe("#aabbcc");
    expect(normalizeColor("abcdef")).toBe("#abcdef");
    for (const bad of ["#12345", "blue", "#ggg", "", "#1234567", 123]) expect(normalizeColor(bad)).toBeNull();
  });

  it("takes only real calendar dates", () => {
    expect(isIsoDate("2026-02-28")).toBe(true);
    expect(isIsoDate("2026-02-30")).toBe(false);
    expect(isIsoDate("05/01/2026")).toBe(false);
  });
});
