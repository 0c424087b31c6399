import { emptyValueFor } from "@crafter/workflow-language";
import { describe, expect, it } from "@jest/globals";
import type { CraftStep, StepInput } from "../../../api/types";
import {
  cleanValues,
  conditionScope,
  displayValue,
  initialValues,
  normalizeColor,
  shapeValue,
  validateInput,
  validateStep,
  visibleInputs,
} from "./step-values";

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

describe("value shape per input kind (engine contract section 5)", () => {
  it("sends strings for the text-like kinds and craft ids for the craft pickers", () => {
    for (const kind of ["text", "url", "autoComplete", "font", "select", "radioSelect", "InlineTextGenerator"]) {
      expect(shapeValue(kind, "  Bold  ")).toBe("Bold");
      expect(shapeValue(kind, undefined)).toBe("");
    }
    expect(shapeValue("craftPicker", "craft-1")).toBe("craft-1");
    expect(shapeValue("inlineCraftPicker", { id: "x" })).toBe("");
    expect(shapeValue("select", 3)).toBe(3);
  });

  it("sends numbers for number and slider, lists of strings for chipText and bulletPoint", () => {
    expect(shapeValue("number", "42")).toBe(42);
    expect(shapeValue("slider", 7)).toBe(7);
    expect(shapeValue("slider", "")).toBeNull();
    expect(shapeValue("number", "abc")).toBeNull();
    expect(shapeValue("chipText", [" a ", "", "b"])).toEqual(["a", "b"]);
    expect(shapeValue("bulletPoint", "one")).toEqual(["one"]);
  });

  it("sends #rrggbb colours, YYYY-MM-DD dates and { start, end } ranges", () => {
    expect(shapeValue("colorPicker", "#1F6FEB")).toBe("#1f6feb");
    expect(shapeValue("colorPicker", "abc")).toBe("#aabbcc");
    expect(shapeValue("colorPicker", "blue")).toBe("");
    expect(normalizeColor("#12345")).toBe("");
    expect(shapeValue("datePicker", "2026-05-01")).toBe("2026-05-01");
    expect(shapeValue("datePicker", "05/01/2026")).toBe("");
    expect(shapeValue("dateRangePicker", { start: "2026-05-01", end: "2026-05-31", extra: 1 })).toEqual({
      start: "2026-05-01",
      end: "2026-05-31",
    });
    expect(shapeValue("dateRangePicker", { start: "2026-05-01" })).toBeNull();
  });

  it("sends { profileId, profileType } and { provider, id, title } objects, else null", () => {
    expect(shapeValue("contextSelector", { profileId: "p1", profileType: "PRODUCT", junk: true })).toEqual({
      profileId: "p1",
      profileType: "PRODUCT",
    });
    expect(shapeValue("contextSelector", { profileId: "" })).toBeNull();
    expect(shapeValue("thirdPartyObjectPicker", { provider: "shopify", id: "42", title: "Lamp" })).toEqual({
      provider: "shopify",
      id: "42",
      title: "Lamp",
    });
    expect(shapeValue("thirdPartyObjectPicker", "42")).toBeNull();
  });

  it("validates colours, dates within bounds and ranges in order", () => {
    const color: StepInput = { name: "brand", kind: "colorPicker", label: "Brand colour", required: true };
    const day: StepInput = { name: "day", kind: "datePicker", label: "Day", min: "2026-01-01", max: "2026-12-31" };
    const range: StepInput = { name: "run", kind: "dateRangePicker", label: "Run", required: true };
    expect(validateInput(color, "#00ff00")).toBeNull();
    expect(validateInput(color, "")).toBe("Brand colour is required");
    expect(validateInput(day, "2027-01-01")).toBe("Day must be on or before 2026-12-31");
    expect(validateInput(day, "2026-06-01")).toBeNull();
    expect(validateInput(range, null)).toBe("Run is required");
    expect(validateInput(range, { start: "2026-06-10", end: "2026-06-01" })).toBe(
      "Run: the end must not be before the start",
    );
    expect(validateInput(range, { start: "2026-06-01", end: "2026-06-10" })).toBeNull();
  });
});

describe("showWhen: hidden inputs are neither validated nor sent", () => {
  const channel: StepInput = {
    name: "channel",
    kind: "radioSelect",
    label: "Channel",
    options: [
      { label: "Instagram", value: "instagram" },
      { label: "LinkedIn", value: "linkedin" },
    ],
  };
  const hashtags: StepInput = {
    name: "hashtags",
    kind: "chipText",
    label: "Hashtags",
    required: true,
    showWhen: { ref: "values.channel", op: "==", value: "instagram" },
  };

  it("shows, validates and sends the input only while its condition holds", () => {
    const linkedin = { channel: "linkedin", hashtags: [] };
    const scope = conditionScope(linkedin);
    expect(visibleInputs([channel, hashtags], scope).map((input) => input.name)).toEqual(["channel"]);
    expect(validateStep([channel, hashtags], linkedin, scope)).toEqual({});
    expect(cleanValues([channel, hashtags], { ...linkedin, hashtags: ["x"] }, scope)).toEqual({ channel: "linkedin" });

    const instagram = { channel: "instagram", hashtags: [] };
    expect(validateStep([channel, hashtags], instagram, conditionScope(instagram))).toEqual({
      hashtags: "Hashtags is required",
    });
  });

  it("lets conditions read other steps' values and results", () => {
    const steps: CraftStep[] = [
      {
        name: "brief",
        kind: "FormStep",
        state: "Completed",
        status: "completed",
        values: { goal: "sales" },
        results: [{ id: "r1", content: "", sections: { angles: ["price"] } }],
      },
    ];
    const offer: StepInput = {
      name: "offer",
      kind: "text",
      showWhen: {
        all: [
          { ref: "steps.brief.values.goal", op: "==", value: "sales" },
          { ref: "steps.brief.result.angles", op: "contains", value: "price" },
        ],
      },
    };
    expect(visibleInputs([offer], conditionScope({}, steps))).toHaveLength(1);
    expect(visibleInputs([offer], conditionScope({}, []))).toHaveLength(0);
  });
});

describe("answers of a completed step", () => {
  it("shows each kind's value as one line", () => {
    expect(displayValue("chipText", ["a", "b"])).toBe("a, b");
    expect(displayValue("dateRangePicker", { start: "2026-05-01", end: "2026-05-31" })).toBe("2026-05-01 → 2026-05-31");
    expect(displayValue("thirdPartyObjectPicker", { provider: "shopify", id: "1", title: "Lamp" })).toBe("Lamp");
    expect(displayValue("contextSelector", { profileId: "p", profileType: "PRODUCT" })).toBe("PRODUCT profile");
    expect(displayValue("slider", 4)).toBe("4");
    expect(displayValue("text", undefined)).toBe("");
  });
});
