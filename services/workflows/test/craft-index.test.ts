import { describe, expect, it } from "@jest/globals";
import { contentName, displayName, nameOf, queryTokens, searchTokens } from "../src/domain/craft-index";
import type { ResultRecord, StepRecord } from "../src/domain/types";

const now = new Date("2025-01-01T10:00:00Z");

function result(partial: Partial<ResultRecord>): ResultRecord {
  return {
    id: "r",
    content: "",
    format: "text",
    engine: "offline",
    usage: { inputTokens: 0, outputTokens: 0 },
    createdAt: now,
    ...partial,
  };
}

function step(name: string, values: StepRecord["values"], results: ResultRecord[] = []): StepRecord {
  return { name, state: "Completed", values, defaults: {}, results, completedAt: null };
}

describe("contentName", () => {
  it("is empty while nothing names the craft", () => {
    expect(contentName([step("topic", {})])).toBe("");
  });

  it("falls back to the topic the user gave", () => {
    expect(contentName([step("topic", { topic: "How often to service your bike" })])).toBe(
      "How often to service your bike",
    );
  });

  it("prefers a generated title over the topic, and the selected result's", () => {
    const steps = [
      step("topic", { topic: "bike service" }, [
        result({ id: "a", format: "list", sections: { titles: ["First idea"] } }),
        result({ id: "b", format: "list", sections: { titles: ["Chosen idea"] }, selected: true }),
      ]),
    ];
    expect(contentName(steps)).toBe("Chosen idea");
  });

  it("prefers the title or subject the user chose over any generated one", () => {
    const steps = [
      step("brief", { topic: "spring" }, [result({ format: "list", sections: { subjects: ["Generated subject"] } })]),
      step("body", { subject: "Your bike, ready for spring" }),
    ];
    expect(contentName(steps)).toBe("Your bike, ready for spring");
  });

  it("takes an ad's first headline and an HTML draft's first heading", () => {
    expect(
      contentName([step("brief", {}, [result({ format: "list", sections: { headlines: ["Same-day repair"] } })])]),
    ).toBe("Same-day repair");
    expect(
      contentName([step("draft", {}, [result({ format: "html", content: "<h1>Keep &amp; ride</h1><p>x</p>" })])]),
    ).toBe("Keep & ride");
  });

  it("shortens a long name at a word, with an ellipsis", () => {
    const long = `${"word ".repeat(40)}end`;
    const name = nameOf(long);
    expect(name.length).toBeLessThanOrEqual(120);
    expect(name.endsWith("…")).toBe(true);
    expect(name).not.toMatch(/wor…$/);
  });
});

describe("displayName", () => {
  it("shows the content's name until the user renames", () => {
    expect(displayName({ craftName: "Untitled Blog post", contentName: "Bike care" })).toBe("Bike care");
    expect(displayName({ craftName: "Untitled Blog post", contentName: "" })).toBe("Untitled Blog post");
    expect(displayName({ craftName: "Mine", nameFromUser: true, contentName: "Bike care" })).toBe("Mine");
  });
});

describe("search tokens", () => {
  const steps = [
    step("topic", { topic: "Wheel truing", keywords: ["e-bike service"] }, [
      result({ format: "html", content: "<p>Spokes lose tension over time.</p>" }),
    ]),
  ];
  const tokens = searchTokens(["Spring tune-up"], steps);

  it("holds name prefixes and whole words of values and results, folded", () => {
    expect(tokens).toEqual(expect.arrayContaining(["sp", "spr", "spring", "tu", "tune", "up"]));
    expect(tokens).toEqual(expect.arrayContaining(["wheel", "truing", "bike", "service", "spokes", "tension"]));
    expect(tokens).not.toContain("whe");
    expect(tokens).not.toContain("<p>");
  });

  it("a query is its distinct folded words, longest first", () => {
    expect(queryTokens("  Trúing  WHEEL wheel ")).toEqual(["truing", "wheel"]);
    expect(queryTokens("   ")).toEqual([]);
    for (const token of queryTokens("Truing wheel")) expect(tokens).toContain(token);
  });
});
