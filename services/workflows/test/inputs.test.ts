import { loadDefinition, type StepDefinition } from "@crafter/workflow-language";
import { describe, expect, it } from "@jest/globals";
import { checkInputs, hiddenInputs } from "../src/domain/inputs";
import { blogWriter } from "./fixtures";

const topicStep = blogWriter.steps[0]!;
const outlineStep = blogWriter.steps[1]!;

describe("input validation", () => {
  it("accepts good values and normalises them", () => {
    const check = checkInputs(
      topicStep,
      {
        topic: "  Keeping a starter alive ",
        keywords: "sourdough, Sourdough , wild yeast,",
        tone: "bold",
        extra: "dropped",
      },
      "complete",
    );
    expect(check.errors).toEqual({});
    expect(check.values).toEqual({
      topic: "Keeping a starter alive",
      keywords: ["sourdough", "wild yeast"],
      tone: "bold",
    });
  });

  it("reports required inputs by field with the spec's messages", () => {
    const check = checkInputs(topicStep, { topic: "  ", tone: "" }, "complete");
    expect(check.errors).toEqual({ topic: "Topic is required", tone: "Tone is required" });
  });

  it("applies Must rules, lengths and options", () => {
    const check = checkInputs(topicStep, { topic: "ab", tone: "grumpy", audience: "x".repeat(121) }, "complete");
    expect(check.errors).toEqual({
      topic: "Topic must be at least 3 characters",
      tone: "Choose one of: Friendly, Professional, Playful, Bold",
      audience: "Audience must be at most 120 characters",
    });
    const outline = checkInputs(outlineStep, { title: "T", outline: ["only one"], length: "short" }, "complete");
    expect(outline.errors).toEqual({ outline: "An outline needs at least 2 sections" });
  });

  it("turns Should rules into warnings, not errors", () => {
    const check = checkInputs(topicStep, { topic: "Bread", tone: "friendly" }, "complete");
    expect(check.errors).toEqual({});
    expect(check.warnings).toEqual({ keywords: "Add a keyword or two so the post can be found" });
  });

  it("rejects values of the wrong shape", () => {
    const check = checkInputs(topicStep, { topic: { nested: true }, keywords: [{ a: 1 }] }, "complete");
    expect(check.errors.topic).toBe("Topic must be text");
    expect(check.errors.keywords).toBe("Keywords must be a list of text");
  });

  it("splits bullet points on lines and strips list markers", () => {
    const check = checkInputs(
      outlineStep,
      { title: "T", outline: "- One\n2. Two\n\n• Three", length: "long" },
      "complete",
    );
    expect(check.values.outline).toEqual(["One", "Two", "Three"]);
  });

  it("only checks shape and size when saving", () => {
    const check = checkInputs(topicStep, { topic: "", tone: "grumpy" }, "save");
    expect(check.errors).toEqual({});
    expect(check.values).toEqual({ topic: "", tone: "grumpy" });
    expect(checkInputs(topicStep, { topic: "x".repeat(151) }, "save").errors.topic).toBe(
      "Topic must be at most 150 characters",
    );
  });

  it("checks URL, email and domain formats with the kit's rules", () => {
    const step: StepDefinition = {
      name: "contact",
      title: "Contact",
      kind: "FormStep",
      viewer: "plain text",
      inputs: [
        { name: "site", kind: "url", label: "Site", required: true, rules: [] },
        { name: "email", kind: "text", label: "Email", required: false, format: "Email", rules: [] },
        { name: "domain", kind: "text", label: "Domain", required: false, format: "DomainName", rules: [] },
      ],
    };
    const bad = checkInputs(step, { site: "not a url", email: "nope", domain: "x" }, "complete");
    expect(bad.errors).toEqual({ site: "Invalid URL", email: "Invalid email", domain: "Invalid domain name" });
    const good = checkInputs(
      step,
      { site: "example.com", email: "a@b.co", domain: "https://www.Example.com/x" },
      "complete",
    );
    expect(good.errors).toEqual({});
    expect(good.values).toEqual({ site: "https://example.com/", email: "a@b.co", domain: "example.com" });
  });

  describe("every input kind's value shape", () => {
    const step = loadStep([
      { name: "color", kind: "colorPicker", label: "Colour" },
      { name: "day", kind: "datePicker", label: "Day", min: "2026-01-01", max: "2026-12-31" },
      { name: "range", kind: "dateRangePicker", label: "Range" },
      { name: "who", kind: "contextSelector", label: "Who" },
      {
        name: "product",
        kind: "thirdPartyObjectPicker",
        label: "Product",
        source: { provider: "shopify", objectType: "product" },
      },
      { name: "craft", kind: "craftPicker", label: "Craft", source: { workflowNames: ["BlogWriter"] } },
      { name: "size", kind: "slider", label: "Size", min: 1, max: 10, step: 1 },
      { name: "count", kind: "number", label: "Count", min: 0 },
      { name: "word", kind: "autoComplete", label: "Word", options: [{ label: "A", value: "a" }] },
      { name: "bullets", kind: "bulletPoint", label: "Bullets" },
    ]);

    it("accepts and normalises well-shaped values", () => {
      const check = checkInputs(
        step,
        {
          color: "#ABC",
          day: "2026-03-01",
          range: { start: "2026-01-01", end: "2026-01-31", extra: "x" },
          who: { profileId: "p1", profileType: "business" },
          product: { provider: "shopify", id: "42", title: "Mug" },
          craft: "craft-1",
          size: "7",
          count: 0,
          word: "free text is fine for suggestions",
          bullets: ["one", "two"],
        },
        "complete",
      );
      expect(check.errors).toEqual({});
      expect(check.values).toMatchObject({
        color: "#aabbcc",
        range: { start: "2026-01-01", end: "2026-01-31" },
        size: 7,
        count: 0,
      });
      expect(check.values.range).toEqual({ start: "2026-01-01", end: "2026-01-31" });
    });

    it("rejects malformed values with a message per field, even when saving", () => {
      const bad = {
        color: "red",
        day: "2026-02-30",
        range: { start: "2026-02-01", end: "2026-01-01" },
        who: { profileId: "p1" },
        product: "42",
        craft: { id: 1 },
        size: "big",
        bullets: [{}],
      };
      for (const mode of ["save", "complete"] as const) {
        expect(checkInputs(step, bad, mode).errors).toEqual({
          color: "Colour must be a colour like #1a2b3c",
          day: "Day must be a date YYYY-MM-DD",
          range: "Range must start before it ends",
          who: "Who must be a profile { profileId, profileType }",
          product: "Product must be an object { provider, id, title }",
          craft: "Craft must be text",
          size: "Size must be a number",
          bullets: "Bullets must be a list of text",
        });
      }
    });

    it("checks min and max of numbers and dates when completing", () => {
      const check = checkInputs(step, { size: 11, count: -1, day: "2025-12-31" }, "complete");
      expect(check.errors).toEqual({
        size: "Size must be at most 10",
        count: "Count must be at least 0",
        day: "Day must be at least 2026-01-01",
      });
      expect(checkInputs(step, { size: 11 }, "save").errors).toEqual({});
    });
  });

  it("applies min/max rules, Must as errors and Should as warnings", () => {
    const step = loadStep([
      {
        name: "budget",
        kind: "number",
        label: "Budget",
        rules: [
          { strength: "Must", check: "min", value: 10, message: "At least 10" },
          { strength: "Should", check: "max", value: 1000, message: "That is a lot" },
        ],
      },
      {
        name: "when",
        kind: "dateRangePicker",
        label: "When",
        rules: [{ strength: "Must", check: "max", value: "2026-12-31", message: "This year only" }],
      },
    ]);
    expect(
      checkInputs(step, { budget: 5, when: { start: "2026-01-01", end: "2027-01-01" } }, "complete").errors,
    ).toEqual({
      budget: "At least 10",
      when: "This year only",
    });
    const high = checkInputs(step, { budget: 5000 }, "complete");
    expect(high.errors).toEqual({});
    expect(high.warnings).toEqual({ budget: "That is a lot" });
  });

  it("neither validates nor saves an input its showWhen hides", () => {
    const step = loadStep([
      {
        name: "channel",
        kind: "select",
        label: "Channel",
        required: true,
        options: [
          { label: "Instagram", value: "ig" },
          { label: "Email", value: "email" },
        ],
      },
      {
        name: "subject",
        kind: "text",
        label: "Subject",
        required: true,
        showWhen: { ref: "values.channel", op: "==", value: "email" },
      },
      {
        name: "hashtags",
        kind: "chipText",
        label: "Hashtags",
        showWhen: { ref: "values.channel", op: "in", value: ["ig"] },
      },
    ]);
    const ig = checkInputs(step, { channel: "ig", subject: "", hashtags: "#a, #b" }, "complete");
    expect(ig.errors).toEqual({});
    expect(ig.values).toEqual({ channel: "ig", hashtags: ["#a", "#b"] });
    const email = checkInputs(step, { channel: "email", subject: "", hashtags: "#a" }, "complete");
    expect(email.errors).toEqual({ subject: "Subject is required" });
    expect(email.values).toEqual({ channel: "email", subject: "" });
    expect(hiddenInputs(step, { channel: "email" }, { profile: null, steps: [] })).toEqual(new Set(["hashtags"]));
  });
});

/** A one-step definition around these inputs, loaded (so defaults apply) and checked. */
function loadStep(inputs: Record<string, unknown>[]): StepDefinition {
  const def = loadDefinition({
    name: "Test",
    version: 1,
    title: "Test",
    description: "A test",
    category: "test",
    steps: [
      {
        name: "form",
        title: "Form",
        kind: "FormStep",
        viewer: "plain text",
        inputs,
        action: {
          kind: "TextGenerator",
          label: "Go",
          resultMode: "ReplaceResults",
          resultViewTrigger: "Manual",
          prompt: { system: "s", template: "t" },
          output: { format: "html" },
          offline: { composer: "blogDraft", framework: "PAS" },
        },
      },
    ],
  });
  return def.steps[0]!;
}
