import { describe, expect, it } from "@jest/globals";
import { fitToLimit, shapeData, shapeOutput } from "../src/domain/output";

describe("platform limits", () => {
  // Limits are kept by whole sentences and phrases, never by cutting one ("…repair or it").
  it.each([
    ["Fresh sourdough every morning", 30, "Fresh sourdough every morning"],
    ["Fresh sourdough every morning in Leeds", 30, ""],
    ["Fresh sourdough, baked daily", 16, "Fresh sourdough"],
    ["Same-day puncture repair or it's free", 30, ""],
    ["Same-day puncture repair – or it's free", 30, "Same-day puncture repair"],
    ["Fix it today. Ride it tomorrow. Keep it for years.", 32, "Fix it today. Ride it tomorrow."],
    ["Wheels (hand-built in Leeds)", 12, ""],
    ["Hand-built wheels (in Leeds)", 20, "Hand-built wheels"],
    ["Supercalifragilistic", 10, ""],
    ["  padded  ", 3, ""],
    ["exact", 5, "exact"],
    ["Closed on Mondays.\n\nOpen late on Fridays.", 45, "Closed on Mondays.\n\nOpen late on Fridays."],
    ["Closed on Mondays.\n\nOpen late on Fridays. And more.", 45, "Closed on Mondays.\n\nOpen late on Fridays."],
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
      "## Headlines\n- Bake better bread at home this weekend\n- Real bread, baked at dawn, every single day\n- Short one\n## Descriptions\n- A description that is long enough to be over thirty characters",
    );
    expect(shaped.sections).toEqual({
      headlines: ["Real bread, baked at dawn", "Short one"],
      descriptions: ["A description that is long enough to be over thirty characters"],
    });
    expect(shaped.content).not.toContain("at home this");
  });

  it("fits text output with maxChars by whole sentences, and refuses text with no whole phrase that fits", () => {
    expect(shapeOutput({ format: "text", maxChars: 12 }, "Hello there. My friend").content).toBe("Hello there.");
    expect(() => shapeOutput({ format: "text", maxChars: 12 }, "Hello there my friend")).toThrow(/no whole phrase/);
  });

  it("counts a line as a whole phrase, so a heading with no full stop can be kept alone", () => {
    const draft =
      "<h1>Wheel Truing</h1>\n<p>There is plenty of advice about wheel truing, and very little for you.</p>";
    expect(shapeOutput({ format: "text", maxChars: 40 }, draft).content).toBe("<h1>Wheel Truing</h1>");
    expect(shapeOutput({ format: "text", maxChars: 200 }, draft).content).toBe(draft);
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
