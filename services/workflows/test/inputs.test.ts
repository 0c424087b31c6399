import { describe, expect, it } from "@jest/globals";
import type { StepDefinition } from "../src/domain/definition";
import { checkInputs } from "../src/domain/inputs";
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
});
