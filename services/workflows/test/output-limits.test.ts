import { describe, expect, it } from "@jest/globals";
import { fitToLimit, shapeData, shapeOutput } from "../src/domain/output";

describe("platform limits", () => {
  it.each([
    ["Fresh sourdough every morning", 30, "Fresh sourdough every morning"],
    ["Fresh sourdough every morning in Leeds", 30, "Fresh sourdough every morning"],
    ["Fresh sourdough, baked daily", 16, "Fresh sourdough"],
    ["Supercalifragilistic", 10, "Supercalif"],
    ["  padded  ", 3, "pad"],
    ["exact", 5, "exact"],
    ["no limit at all", undefined, "no limit at all"],
  ])("fits %j to %s characters", (text, max, expected) => {
    const fitted = fitToLimit(text, max);
    expect(fitted).toBe(expected);
    if (max !== undefined) expect(fitted.length).toBeLessThanOrEqual(max);
  });

  it("fits every item of a section with maxChars, whatever the engine wrote, and leaves others alone", () => {
    const shaped = shapeOutput(
      {
        format: "list",
        sections: [
          { key: "headlines", heading: "Headlines", minItems: 1, maxChars: 30 },
          { key: "descriptions", heading: "Descriptions", minItems: 1 },
        ],
      },
      "## Headlines\n- Bake better bread at home this weekend\n- Short one\n## Descriptions\n- A description that is long enough to be over thirty characters",
    );
    expect(shaped.sections).toEqual({
      headlines: ["Bake better bread at home this", "Short one"],
      descriptions: ["A description that is long enough to be over thirty characters"],
    });
    expect(shaped.content).toContain("- Bake better bread at home this\n");
  });

  it("fits text output with maxChars", () => {
    expect(shapeOutput({ format: "text", maxChars: 12 }, "Hello there my friend").content).toBe("Hello there");
  });

  it("keeps a function's data and lifts its listed sections", () => {
    const shaped = shapeData(
      { format: "data", sections: [{ key: "keywords", heading: "Keywords", minItems: 0 }] },
      { content: "3 keywords", data: { keywords: ["a", { keyword: "b", volume: 3 }, { volume: 4 }], total: 3 } },
    );
    expect(shaped).toEqual({
      content: "3 keywords",
      format: "data",
      data: { keywords: ["a", { keyword: "b", volume: 3 }, { volume: 4 }], total: 3 },
      sections: { keywords: ["a", "b"] },
    });
  });
});
