import { describe, expect, it } from "@jest/globals";
import type { CraftStep, StepInput } from "../../../api/types";
import { cleanValues, emptyValueFor, initialValues, validateInput, validateStep } from "./step-values";

const topic: StepInput = { name: "topic", kind: "text", label: "Topic", required: true };
const keywords: StepInput = { name: "keywords", kind: "chipText", label: "Keywords", required: true };
const site: StepInput = { name: "site", kind: "url", label: "Website" };
const words: StepInput = { name: "words", kind: "number", label: "Words", min: 300, max: 3000 };
const tone: StepInput = {
  name: "tone",
  kind: "select",
  label: "Tone",
  options: [
    { label: "Friendly", value: "friendly" },
    { label: "Expert", value: "expert" },
  ],
};
const points: StepInput = { name: "points", kind: "bulletPoint", label: "Key points" };

describe("initial values", () => {
  it("prefers saved values, then the definition's default, then the kind's empty value", () => {
    const step: CraftStep = {
      name: "topic",
      kind: "FormStep",
      state: "InProgress",
      status: "inprogress",
      inputs: [topic, keywords, words, { ...tone, defaultValue: "friendly" }, points],
      values: { topic: "Soap", keywords: "lavender" },
    };
    expect(initialValues(step)).toEqual({
      topic: "Soap",
      keywords: ["lavender"],
      words: null,
      tone: "friendly",
      points: [],
    });
    expect(emptyValueFor("chipText")).toEqual([]);
    expect(emptyValueFor("text")).toBe("");
  });
});

describe("validation by kind", () => {
  it("requires required inputs, lists included", () => {
    expect(validateInput(topic, "  ")).toBe("Topic is required");
    expect(validateInput(keywords, [])).toBe("Keywords is required");
    expect(validateInput(keywords, ["", " "])).toBe("Keywords is required");
    expect(validateInput(keywords, ["soap"])).toBeNull();
    expect(validateInput(site, "")).toBeNull();
  });

  it("applies the spec's URL rule with scheme-less URLs allowed", () => {
    expect(validateInput(site, "example.com")).toBeNull();
    expect(validateInput(site, "https://shop.example.co.uk/about")).toBeNull();
    expect(validateInput(site, "not a url")).toBe("Invalid URL");
    expect(validateInput(site, "localhost")).toBe("Invalid URL");
    expect(validateInput(site, "ws://example.com")).toBe("Invalid URL");
  });

  it("checks numbers and their bounds, and select options", () => {
    expect(validateInput(words, 1200)).toBeNull();
    expect(validateInput(words, 100)).toBe("Words must be at least 300");
    expect(validateInput(words, 5000)).toBe("Words must be at most 3000");
    expect(validateInput(tone, "expert")).toBeNull();
    expect(validateInput(tone, "angry")).toBe("Choose one of the Tone options");
  });

  it("collects the messages of a whole step", () => {
    expect(validateStep([topic, keywords, site], { topic: "", keywords: ["a"], site: "nope" })).toEqual({
      topic: "Topic is required",
      site: "Invalid URL",
    });
  });
});

describe("values sent to the server", () => {
  it("trims strings, drops blank list items, and keeps only the step's inputs", () => {
    expect(
      cleanValues([topic, keywords, points, words], {
        topic: "  Soap  ",
        keywords: [" lavender ", ""],
        points: ["one", "  "],
        words: undefined,
        stray: "x",
      }),
    ).toEqual({ topic: "Soap", keywords: ["lavender"], points: ["one"], words: null });
  });
});

describe("limits from the definition", () => {
  it("checks maxLength of text and of each list item, and maxItems of lists", () => {
    const title: StepInput = { name: "title", kind: "text", label: "Title", maxLength: 5 };
    const tags: StepInput = { name: "tags", kind: "chipText", label: "Tags", maxItems: 2, maxLength: 4 };
    expect(validateInput(title, "short")).toBeNull();
    expect(validateInput(title, "too long")).toBe("Title must be at most 5 characters");
    expect(validateInput(tags, ["a", "b"])).toBeNull();
    expect(validateInput(tags, ["a", "b", "c"])).toBe("Tags: at most 2 items");
    expect(validateInput(tags, ["a", "bbbbb"])).toBe("Tags: each item must be at most 4 characters");
  });
});
