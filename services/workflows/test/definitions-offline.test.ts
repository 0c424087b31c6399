import type { JsonValue } from "@bufbuild/protobuf";
import {
  isTextAction,
  resolveReference,
  type StepDefinition,
  type WorkflowDefinition,
} from "@crafter/workflow-language";
import { describe, expect, it } from "@jest/globals";
import { type BrandVoice, withBrandVoice } from "../src/domain/brand-voice";
import { parseSections, shapeOutput } from "../src/domain/output";
import { buildGeneration, buildInlineGeneration } from "../src/domain/prompt";
import type { ResultRecord, StepRecord, Values } from "../src/domain/types";
import { composeOffline } from "../src/generation/offline-engine";
import { profile, registry } from "./fixtures";

// Every text action of every definition, written by its offline composer from sample answers:
// the raw text (before the engine fits anything) already keeps each section's maxChars and
// minItems, and no prompt prints an object as "[object Object]".

const now = new Date("2026-01-01T00:00:00Z");

/** Sample answers by input name; inputs not listed get their default or a value of their kind. */
const SAMPLES: Values = {
  offering: "Sourdough starter kit",
  name: "Sourdough starter kit",
  businessName: "Crumb & Co",
  audience: "home bakers",
  topic: "Keeping a sourdough starter alive through winter",
  idea: "Mobile bike repair",
  customerWant: "bake great bread at home",
  keywords: ["sourdough starter", "wild yeast", "rye bread"],
  seedTopics: ["rye bread", "starter care"],
  themes: ["sourdough", "baking classes"],
  benefits: ["Bake your first loaf in a week", "Step-by-step video lessons", "Starter guaranteed alive"],
  features: ["Live rye starter", "Proofing basket", "Bench scraper"],
  painPoints: ["flat, dense loaves", "starters that die"],
  offer: "15% off your first kit",
  url: "https://crumb.example.com/kit",
  websiteUrl: "https://crumb.example.com",
  goal: "Sell 200 kits before Christmas",
  campaignName: "Winter bake",
  startDate: "2026-12-01",
  endDate: "2026-12-24",
  talkingPoints: ["Feeding schedules", "Reviving a sleepy starter"],
  primaryColor: "#c0392b",
  subject: "A jar of bubbling starter",
  title: "Winter opening hours",
  keyPoints: ["Closed on Mondays", "Late opening on Fridays"],
  description: "We bake slow-fermented sourdough in small batches in Leeds.",
};

function sampleValue(input: StepDefinition["inputs"][number]): JsonValue | undefined {
  if (SAMPLES[input.name] !== undefined) return SAMPLES[input.name];
  if (input.default !== undefined) return input.default as JsonValue;
  if (input.options) return input.options[0]!.value;
  if (input.kind === "number" || input.kind === "slider") return typeof input.min === "number" ? input.min : 5;
  return undefined;
}

/** Sample data a FunctionCaller answers with (as a provider or the audit would). */
const FUNCTION_DATA: Record<string, JsonValue> = {
  websiteAudit: {
    title: "Crumb & Co | Sourdough in Leeds",
    metaDescription: "Real bread.",
    headings: [{ level: 1, text: "Sourdough" }],
    issues: ["Add a canonical link."],
  },
  keywordResearch: {
    keywords: [{ keyword: "how to make sourdough starter", searchVolume: 12000, competition: 0.1, cpc: 0.3 }],
  },
  competitorResearch: { competitors: [{ domain: "breadclub.example", organicTraffic: 4300, commonKeywords: 54 }] },
};

/** A project profile with nothing but a name and an audience (no keywords, description or website). */
const BARE_PROFILE = { ...profile, description: "", keywords: [], websiteUrl: "" };

/**
 * Runs every step offline: with `sparse`, only required inputs are answered and the profile is
 * bare, as a user who leaves every optional field empty on a new project.
 */
function walk(
  def: WorkflowDefinition,
  sparse = false,
  voice: BrandVoice | null = null,
): { step: string; text: string; prompt: string }[] {
  const who = sparse ? BARE_PROFILE : profile;
  const records: StepRecord[] = [];
  const written: { step: string; text: string; prompt: string }[] = [];
  for (const step of def.steps) {
    const values: Values = {};
    for (const input of step.inputs) {
      const value =
        (sparse && !input.required ? undefined : sampleValue(input)) ??
        (input.defaultFrom ? resolveReference(input.defaultFrom, { profile: who, steps: records }) : undefined) ??
        (sparse ? (input.default as JsonValue | undefined) : undefined);
      if (value !== undefined) values[input.name] = value;
    }
    const results: ResultRecord[] = [];
    const base = { engine: "offline", usage: { inputTokens: 0, outputTokens: 0 }, createdAt: now };
    if (isTextAction(step.action)) {
      const items = step.iterator
        ? ((resolveReference(step.iterator.over, { profile: who, steps: records }) as JsonValue[]) ?? [])
        : [undefined];
      items.forEach((item, itemIndex) => {
        const extras = step.iterator ? { item: item!, itemIndex } : {};
        const request = withBrandVoice(buildGeneration(def, step, values, records, who, extras), voice);
        const text = composeOffline(request);
        written.push({ step: step.name, text, prompt: request.prompt });
        results.push({ id: `${step.name}-${itemIndex}`, ...shapeOutput(request.output, text), ...base });
      });
    } else if (step.action?.kind === "FunctionCaller") {
      results.push({
        id: step.name,
        content: "(data)",
        format: "data",
        // Sparse: the audit read a page with nothing on it (research without data fails instead).
        data:
          sparse && step.action.function === "websiteAudit"
            ? { title: "", metaDescription: "", headings: [], issues: [] }
            : FUNCTION_DATA[step.action.function]!,
        ...base,
      });
    }
    records.push({ name: step.name, state: "Completed", values, defaults: {}, results });
  }
  return written;
}

describe("every definition's offline drafts", () => {
  for (const name of registry.headers().names) {
    it(`${name}: drafts every text step when only the required answers are given on a bare project`, () => {
      // A composer writing fewer items than its output asks for would be a 500.
      expect(() => walk(registry.latest(name)!, true)).not.toThrow();
    });

    it(`${name}: writes every text step within its limits from the answers`, () => {
      const def = registry.latest(name)!;
      const written = walk(def);
      const textSteps = def.steps.filter((step) => isTextAction(step.action));
      expect(new Set(written.map((entry) => entry.step))).toEqual(new Set(textSteps.map((step) => step.name)));
      for (const { step: stepName, text, prompt } of written) {
        expect(prompt).not.toContain("[object Object]");
        const step = def.steps.find((candidate) => candidate.name === stepName)!;
        const output = isTextAction(step.action) ? step.action.output : undefined;
        if (output?.format !== "list") continue;
        const sections = parseSections(text, output.sections);
        for (const section of output.sections) {
          const items = sections[section.key] ?? [];
          expect(`${name}.${stepName}.${section.key}: ${items.length} items`).toBe(
            `${name}.${stepName}.${section.key}: ${Math.max(items.length, section.minItems)} items`,
          );
          if (section.maxChars) {
            for (const item of items)
              expect(`${name}.${stepName}.${section.key}: ${item}`.length).toBeLessThanOrEqual(
                `${name}.${stepName}.${section.key}: `.length + section.maxChars,
              );
          }
        }
      }
    });
  }
});

describe("every definition's offline drafts keep the brand voice's words to avoid out", () => {
  // The samples say "sourdough" and "winter" again and again (topic, keywords, themes, profile).
  const voice: BrandVoice = {
    tone: "warm",
    wordsToUse: ["handmade"],
    wordsToAvoid: ["sourdough", "Winter", "really good"],
    exampleCopy: "Our loaves are handmade at dawn.",
  };
  for (const name of registry.headers().names) {
    it(`${name}: no avoided word in any step's draft, and every draft still has its shape`, () => {
      const written = walk(registry.latest(name)!, false, voice);
      for (const { step, text } of written) {
        expect(`${name}.${step}: ${text.match(/sourdough|winter|really good/gi)?.join(", ") ?? ""}`).toBe(
          `${name}.${step}: `,
        );
      }
    });
  }
});

describe("SmartEditor's inline commands offline", () => {
  const def = registry.latest("SmartEditor")!;
  const editor = def.steps.find((step) => step.name === "editor")!;
  const commands = editor.action?.kind === "InlineTextGenerator" ? editor.action.commands : [];
  const text =
    "We bake bread in order to make people happy. It is really very good bread.\n\nOur shop opens at eight. It closes at six.";

  it("edits the selected text the params carry, command by command", () => {
    const run = (name: string) => {
      const command = commands.find((candidate) => candidate.name === name)!;
      return composeOffline(buildInlineGeneration(def, editor, command, {}, { text }, [], profile));
    };
    expect(run("shorten")).toBe("We bake bread to make people happy.\n\nOur shop opens at eight.");
    expect(run("bullets").split("\n")).toHaveLength(4);
    expect(run("summarize")).toBe("In short: We bake bread in order to make people happy. our shop opens at eight.");
    expect(run("friendly")).toContain("It's really very good bread.");
    expect(commands.map((command) => command.name)).toEqual([
      "shorten",
      "expand",
      "simplify",
      "bullets",
      "summarize",
      "friendly",
      "formal",
    ]);
  });

  it("the document input's own generator tidies the text", () => {
    const input = editor.inputs.find((candidate) => candidate.name === "document")!;
    const out = composeOffline(
      buildInlineGeneration(
        def,
        editor,
        input.generator!,
        {},
        { text: "We did this   in order to help." },
        [],
        profile,
      ),
    );
    expect(out).toBe("We did this to help.");
  });
});
