import { describe, expect, it } from "@jest/globals";
import { type Condition, conditionRefs, evaluateCondition } from "../src/conditions";

const data: Record<string, unknown> = {
  "values.channel": "Instagram",
  "values.count": 5,
  "values.countText": "5",
  "values.zero": 0,
  "values.empty": "",
  "values.blank": "   ",
  "values.none": null,
  "values.tags": ["SEO", "ads"],
  "values.noTags": [],
  "values.one": ["solo"],
  "values.date": "2026-03-15",
  "values.range": { start: "2026-01-01", end: "2026-02-01" },
  "values.flag": true,
};
const resolve = (ref: string) => data[ref];
const check = (condition: Condition) => evaluateCondition(condition, resolve);

describe("conditions", () => {
  const table: [string, Condition, boolean][] = [
    ["== is case-insensitive for text", { ref: "values.channel", op: "==", value: "instagram" }, true],
    ["== trims", { ref: "values.channel", op: "==", value: " INSTAGRAM " }, true],
    ["!= of another value", { ref: "values.channel", op: "!=", value: "facebook" }, true],
    ["== number vs numeric string", { ref: "values.countText", op: "==", value: 5 }, true],
    ["== number vs number string", { ref: "values.count", op: "==", value: "5.0" }, true],
    ["== 0 is not empty", { ref: "values.zero", op: "==", value: 0 }, true],
    ["== 0 is not ''", { ref: "values.zero", op: "==", value: "" }, false],
    ["== undefined equals null", { ref: "values.missing", op: "==", value: null }, true],
    ["== '' equals null", { ref: "values.empty", op: "==", value: null }, true],
    ["== boolean vs 'true'", { ref: "values.flag", op: "==", value: "true" }, true],
    ["== array vs array", { ref: "values.tags", op: "==", value: ["seo", "ADS"] }, true],
    ["== array order matters", { ref: "values.tags", op: "==", value: ["ads", "seo"] }, false],
    ["== single-item array vs scalar", { ref: "values.one", op: "==", value: "SOLO" }, true],
    ["== empty array equals null", { ref: "values.noTags", op: "==", value: null }, true],
    ["> numbers", { ref: "values.count", op: ">", value: 4 }, true],
    ["> numeric text compares as numbers", { ref: "values.countText", op: ">", value: "10" }, false],
    ["<= equal numbers", { ref: "values.count", op: "<=", value: 5 }, true],
    [">= dates as strings", { ref: "values.date", op: ">=", value: "2026-03-15" }, true],
    ["< dates as strings", { ref: "values.date", op: "<", value: "2026-04-01" }, true],
    ["> of an empty value is false", { ref: "values.missing", op: ">", value: 0 }, false],
    ["< of an empty value is false", { ref: "values.empty", op: "<", value: 10 }, false],
    ["> of an object is false", { ref: "values.range", op: ">", value: "2025-01-01" }, false],
    ["hasValue text", { ref: "values.channel", op: "hasValue" }, true],
    ["hasValue blank text", { ref: "values.blank", op: "hasValue" }, false],
    ["hasValue 0", { ref: "values.zero", op: "hasValue" }, true],
    ["hasValue false", { ref: "values.flag", op: "hasValue" }, true],
    ["hasValue null", { ref: "values.none", op: "hasValue" }, false],
    ["hasValue undefined", { ref: "values.missing", op: "hasValue" }, false],
    ["hasValue []", { ref: "values.noTags", op: "hasValue" }, false],
    ["hasValue object", { ref: "values.range", op: "hasValue" }, true],
    ["in", { ref: "values.channel", op: "in", value: ["facebook", "instagram"] }, true],
    ["in with numbers as text", { ref: "values.count", op: "in", value: ["4", "5"] }, true],
    ["in: an array value matches by any item", { ref: "values.tags", op: "in", value: ["ads"] }, true],
    ["in: an empty array matches nothing", { ref: "values.noTags", op: "in", value: ["ads"] }, false],
    ["not in", { ref: "values.channel", op: "not in", value: ["facebook"] }, true],
    ["not in of undefined", { ref: "values.missing", op: "not in", value: ["a"] }, true],
    ["contains substring, case-insensitive", { ref: "values.channel", op: "contains", value: "GRAM" }, true],
    ["contains array member", { ref: "values.tags", op: "contains", value: "seo" }, true],
    ["contains array: no partial member", { ref: "values.tags", op: "contains", value: "se" }, false],
    ["contains on empty array", { ref: "values.noTags", op: "contains", value: "seo" }, false],
    ["contains on undefined", { ref: "values.missing", op: "contains", value: "a" }, false],
    ["contains an empty needle is false", { ref: "values.channel", op: "contains", value: "" }, false],
    ["notContains", { ref: "values.tags", op: "notContains", value: "email" }, true],
    ["notContains of undefined", { ref: "values.missing", op: "notContains", value: "a" }, true],
    ["all of nothing", { all: [] }, true],
    ["any of nothing", { any: [] }, false],
    [
      "all",
      {
        all: [
          { ref: "values.channel", op: "==", value: "instagram" },
          { ref: "values.count", op: ">", value: 1 },
        ],
      },
      true,
    ],
    [
      "all with one false",
      {
        all: [
          { ref: "values.channel", op: "==", value: "instagram" },
          { ref: "values.count", op: ">", value: 10 },
        ],
      },
      false,
    ],
    [
      "any",
      {
        any: [
          { ref: "values.missing", op: "hasValue" },
          { ref: "values.tags", op: "contains", value: "ads" },
        ],
      },
      true,
    ],
    ["not", { not: { ref: "values.missing", op: "hasValue" } }, true],
    [
      "nested",
      {
        not: {
          any: [{ ref: "values.channel", op: "==", value: "x" }, { all: [{ ref: "values.zero", op: "<", value: 1 }] }],
        },
      },
      false,
    ],
  ];

  it.each(table)("%s", (_name, condition, expected) => {
    expect(check(condition)).toBe(expected);
  });

  it("lists every reference a condition reads", () => {
    expect(
      conditionRefs({
        all: [{ ref: "values.a", op: "hasValue" }, { not: { any: [{ ref: "steps.s.values.b", op: "==", value: 1 }] } }],
      }),
    ).toEqual(["values.a", "steps.s.values.b"]);
  });

  it("is in a package that imports only zod and itself, so the browser loads the same code", async () => {
    const { readdir, readFile } = await import("node:fs/promises");
    const dir = new URL("../src/", import.meta.url);
    const files = (await readdir(dir)).filter((name) => name.endsWith(".ts"));
    expect(files).toContain("conditions.ts");
    for (const file of files) {
      const source = await readFile(new URL(file, dir), "utf8");
      for (const [, from] of source.matchAll(/^(?:import|export)\s[^;]*?from\s+"([^"]+)"/gms)) {
        expect(`${file}: ${from}`).toMatch(/: (zod|\.\/[\w-]+)$/);
      }
      expect(source).not.toMatch(/\brequire\(/);
    }
  });
});
