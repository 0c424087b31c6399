import { describe, expect, it } from "@jest/globals";
import { brandVoicePrompt, scrubAvoided, withBrandVoice } from "../src/domain/brand-voice";
import type { GenerationRequest } from "../src/domain/prompt";

const voice = {
  tone: "warm and plain-spoken",
  wordsToUse: ["handmade", "neighbourhood"],
  wordsToAvoid: ["cheap", "world-class"],
  exampleCopy: "Fresh loaves, baked before you wake.",
};

const request = {
  workflowName: "BlogWriter",
  stepName: "topic",
  system: "You are a blog writer.",
  prompt: "Write about rye.",
  output: { format: "text" },
  offline: { composer: "blogPlan", framework: "AIDA" },
  context: { values: {}, steps: {}, profile: null, labels: {} },
} as unknown as GenerationRequest;

describe("the brand voice in the system prompt", () => {
  it("adds tone, words to use and avoid, and the example after the workflow's own system prompt", () => {
    const built = withBrandVoice(request, voice);
    expect(built.system.startsWith("You are a blog writer.\n\nBrand voice of this business")).toBe(true);
    expect(built.system).toContain("- Tone: warm and plain-spoken");
    expect(built.system).toContain("use where they fit: handmade, neighbourhood");
    expect(built.system).toContain("Never use these words or phrases, in any form: cheap, world-class");
    expect(built.system).toContain('"""\nFresh loaves, baked before you wake.\n"""');
    expect(built.prompt).toBe(request.prompt);
    expect(built.context.avoid).toEqual(["cheap", "world-class"]);
  });

  it("leaves the request as it is when the voice is empty or absent", () => {
    expect(withBrandVoice(request, null)).toBe(request);
    expect(withBrandVoice(request, { tone: " ", wordsToUse: [], wordsToAvoid: [], exampleCopy: "" })).toBe(request);
    expect(brandVoicePrompt({ tone: "bold", wordsToUse: [], wordsToAvoid: [], exampleCopy: "" })).toBe(
      "Brand voice of this business (follow it in everything you write):\n- Tone: bold",
    );
  });
});

describe("scrubAvoided (the offline engine's words to avoid)", () => {
  it("removes whole words and phrases in any case, with simple endings, and tidies what is left", () => {
    expect(scrubAvoided("Cheap bread, cheaply made, by a World-Class baker.", voice.wordsToAvoid)).toBe(
      "Bread, made, by a baker.",
    );
    expect(scrubAvoided("Our prices are cheap.", ["cheap"])).toBe("Our prices are.");
  });

  it("does not touch words that merely contain an avoided one", () => {
    expect(scrubAvoided("A cheapskate's cheapest loaf", ["cheap"])).toBe("A cheapskate's cheapest loaf");
  });

  it("drops headings left empty, marks list items left empty, keeps other lines and blank lines", () => {
    expect(scrubAvoided("## Cheap\n- cheap\n- rye\n\nEnd", ["cheap"])).toBe("- (left out)\n- rye\n\nEnd");
  });

  it("leaves the lines it is told to keep (the output's section headings), and drops hashtags holding a word", () => {
    expect(scrubAvoided("## Cheap eats\n- Rye #CheapEats #rye", ["cheap"], ["## Cheap eats"])).toBe(
      "## Cheap eats\n- Rye #rye",
    );
  });

  it("matches phrases across any whitespace and treats regex characters literally", () => {
    expect(scrubAvoided("really  good and c++ jokes", ["really good", "c++"])).toBe("and jokes");
  });

  it("changes nothing without words to avoid", () => {
    expect(scrubAvoided("Cheap", [])).toBe("Cheap");
    expect(scrubAvoided("Cheap", undefined)).toBe("Cheap");
  });
});
