import { describe, expect, it } from "@jest/globals";
import { startCraft } from "../src/domain/craft";
import { MalformedOutputError, parseSections, shapeOutput } from "../src/domain/output";
import { buildGeneration } from "../src/domain/prompt";
import { blogWriter, profile } from "./fixtures";

const sections = [
  { key: "titles", heading: "Title ideas", minItems: 1 },
  { key: "outline", heading: "Outline", minItems: 2 },
];

describe("shaping generated text", () => {
  it("reads the sections a model writes, in the usual variations", () => {
    const text = [
      "Sure! Here is your plan:",
      "**Title ideas:**",
      '1. "Starter 101"',
      "2) **Wild Yeast, Tamed**",
      "",
      "### Outline",
      "* Why it matters",
      "- Feeding schedule",
      "• Storing it",
    ].join("\n");
    expect(parseSections(text, sections)).toEqual({
      titles: ["Starter 101", "Wild Yeast, Tamed"],
      outline: ["Why it matters", "Feeding schedule", "Storing it"],
    });
  });

  it("normalises the list it stores and refuses a list missing a section", () => {
    const shaped = shapeOutput({ format: "list", sections }, "```\n## Title ideas\n- A\n## Outline\n- x\n- y\n```");
    expect(shaped).toEqual({
      format: "list",
      content: "## Title ideas\n- A\n\n## Outline\n- x\n- y",
      sections: { titles: ["A"], outline: ["x", "y"] },
    });
    expect(() => shapeOutput({ format: "list", sections }, "## Title ideas\n- A")).toThrow(MalformedOutputError);
    expect(() => shapeOutput({ format: "html" }, "   ")).toThrow(MalformedOutputError);
  });

  it("keeps safe rich text and drops scripts, handlers and unsafe links", () => {
    const { content } = shapeOutput(
      { format: "html" },
      '<h1 class="x">Hi</h1><script>alert(1)</script><p onclick="evil()">A &amp; B < C</p>' +
        '<a href="javascript:alert(1)">bad</a><a href="https://ok.example/?a=1&b=2">ok</a><img src=x onerror=y><!-- c -->',
    );
    expect(content).toBe(
      '<h1>Hi</h1><p>A &amp; B &lt; C</p><a rel="noopener noreferrer">bad</a><a href="https://ok.example/?a=1&amp;b=2" rel="noopener noreferrer">ok</a><img src="x" />',
    );
  });

  it("wraps plain text from a model into paragraphs when HTML was asked for", () => {
    expect(shapeOutput({ format: "html" }, "First & one.\n\nSecond.").content).toBe(
      "<p>First &amp; one.</p>\n<p>Second.</p>",
    );
  });
});

describe("prompts", () => {
  const progress = startCraft(blogWriter, profile, new Date());

  it("fills the template from the user's values and the profile, with select labels", () => {
    const values = {
      topic: "Keeping a starter alive",
      keywords: ["starter", "levain"],
      audience: "home bakers",
      tone: "bold",
    };
    const request = buildGeneration(blogWriter, blogWriter.steps[0]!, values, progress.steps, profile);
    expect(request.system).toContain("content strategist");
    expect(request.prompt).toContain("Business: Crumb & Co");
    expect(request.prompt).toContain("Topic: Keeping a starter alive");
    expect(request.prompt).toContain("Keywords to target: starter, levain");
    expect(request.prompt).toContain("Tone: Bold");
    expect(request.prompt).not.toContain("{{");
    expect(request.context.labels).toEqual({ tone: "Bold" });
  });

  it("leaves out lines whose values are empty and writes lists as bullet lines", () => {
    const values = { topic: "Bread", tone: "friendly" };
    const request = buildGeneration(blogWriter, blogWriter.steps[0]!, values, progress.steps, null);
    expect(request.prompt).not.toContain("Business:");
    expect(request.prompt).not.toContain("Keywords to target");
    expect(request.prompt).not.toContain("(not given)");

    const steps = progress.steps.map((step) =>
      step.name === "topic"
        ? { ...step, state: "Completed" as const, values: { ...values, audience: "bakers" } }
        : step.name === "outline"
          ? { ...step, state: "InProgress" as const }
          : step,
    );
    const draft = buildGeneration(
      blogWriter,
      blogWriter.steps[1]!,
      { title: "T", outline: ["One", "Two"], length: "long" },
      steps,
      profile,
    );
    expect(draft.prompt).toContain("Outline (one section per item, in this order):\n- One\n- Two\n");
    expect(draft.prompt).toContain("Length: Long (~1500 words)");
    expect(draft.prompt).toContain("Audience: bakers");
    expect(draft.prompt).toContain("Tone: Friendly");
  });
});
