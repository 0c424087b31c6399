import type { JsonValue } from "@bufbuild/protobuf";
import { isTextAction, resolveReference, type WorkflowDefinition } from "@crafter/workflow-language";
import { describe, expect, it } from "@jest/globals";
import { shapeOutput } from "../src/domain/output";
import { buildGeneration } from "../src/domain/prompt";
import type { ResultRecord, StepRecord, Values } from "../src/domain/types";
import { composeOffline } from "../src/generation/offline-engine";
import { registry } from "./fixtures";
import { BRIEFS, type Brief } from "./quality/briefs";
import {
  cutOrOverLimit,
  plain,
  repeatedInputPhrases,
  repeatedSentences,
  unansweredQuestion,
  words,
} from "./quality/checks";

// The offline engine's quality, over every workflow and several real-business briefs,
// as a user would run them (each step prefilled from the last, answered from the brief):
// - a blog post repeats no 3-word phrase of the user's inputs more than 3 times;
// - no draft repeats a sentence;
// - the blog post's headings name its question and a section states the inputs' own facts;
// - every item with a platform limit keeps it without a cut phrase (no item ends on a function
//   word or on a word that is no whole word of the inputs or drafts).
// Part of the unit tests, so `make test` runs it; it takes about a second.

const now = new Date("2026-01-01T00:00:00Z");

/** Small words composers add themselves (calls to action), besides the inputs' and drafts' words. */
const COMPOSER_WORDS = [
  "now",
  "today",
  "online",
  "us",
  "more",
  "started",
  "free",
  "here",
  "site",
  "week",
  "team",
  "lasts",
  "news",
  "inside",
];

interface Written {
  workflow: string;
  step: string;
  format: ResultRecord["format"];
  content: string;
  sections?: Record<string, string[]>;
  limits: Record<string, number | undefined>;
}

function answer(brief: Brief, input: WorkflowDefinition["steps"][number]["inputs"][number], records: StepRecord[]) {
  const given = brief.answers[input.name];
  if (given !== undefined) return given;
  if (input.defaultFrom) {
    const prefill = resolveReference(input.defaultFrom, { profile: brief.profile, steps: records });
    if (prefill !== undefined && prefill !== null && prefill !== "") return prefill as JsonValue;
  }
  if (input.default !== undefined) return input.default as JsonValue;
  if (input.options) return input.options[0]!.value;
  if (input.kind === "number" || input.kind === "slider") return typeof input.min === "number" ? input.min : 5;
  return undefined;
}

/** Runs every step of a workflow offline for a brief; function steps answer a plain audit. */
function run(def: WorkflowDefinition, brief: Brief): Written[] {
  const records: StepRecord[] = [];
  const written: Written[] = [];
  for (const step of def.steps) {
    const values: Values = {};
    for (const input of step.inputs) {
      const value = answer(brief, input, records);
      if (value !== undefined) values[input.name] = value;
    }
    const results: ResultRecord[] = [];
    const base = { engine: "offline", usage: { inputTokens: 0, outputTokens: 0 }, createdAt: now };
    if (isTextAction(step.action)) {
      const items = step.iterator
        ? ((resolveReference(step.iterator.over, { profile: brief.profile, steps: records }) as JsonValue[]) ?? [])
        : [undefined];
      items.forEach((item, itemIndex) => {
        const request = buildGeneration(
          def,
          step,
          values,
          records,
          brief.profile,
          step.iterator ? { item: item!, itemIndex } : {},
        );
        const shaped = shapeOutput(request.output, composeOffline(request));
        const limits =
          request.output.format === "list"
            ? Object.fromEntries(request.output.sections.map((section) => [section.key, section.maxChars]))
            : { content: request.output.format === "text" ? request.output.maxChars : undefined };
        written.push({
          workflow: def.name,
          step: step.name,
          format: shaped.format,
          content: shaped.content,
          sections: shaped.sections,
          limits,
        });
        results.push({ id: `${step.name}-${itemIndex}`, ...shaped, ...base });
      });
    } else if (step.action?.kind === "FunctionCaller") {
      results.push({
        id: step.name,
        content: "(data)",
        format: "data",
        data: functionData(step.action.function, brief),
        ...base,
      });
    }
    records.push({ name: step.name, state: "Completed", values, defaults: {}, results });
  }
  return written;
}

/** What a FunctionCaller answers with for the brief (a plain audit, a provider's rows). */
function functionData(name: string, brief: Brief): JsonValue {
  const keyword = brief.profile.keywords[0] ?? brief.profile.name;
  if (name === "keywordResearch") {
    return { keywords: [{ keyword, searchVolume: 1200, competition: 0.2, cpc: 0.8 }] };
  }
  if (name === "competitorResearch") {
    return { competitors: [{ domain: "rival.example", organicTraffic: 4300, commonKeywords: 54 }] };
  }
  return { title: brief.profile.name, metaDescription: "", headings: [], issues: [] };
}

function inputTexts(brief: Brief): string[] {
  const texts: string[] = [
    brief.profile.name,
    brief.profile.description,
    brief.profile.audience,
    ...brief.profile.keywords,
  ];
  for (const value of Object.values(brief.answers)) {
    if (typeof value === "string") texts.push(value);
    else if (Array.isArray(value)) for (const item of value) if (typeof item === "string") texts.push(item);
  }
  return texts;
}

/** Workflows whose every step needs a research provider's data (no drafts offline). */
const names = registry.headers().names;

describe.each(BRIEFS.map((brief) => [brief.key, brief] as const))("offline drafts for %s", (_key, brief) => {
  const all = names.flatMap((name) => {
    const def = registry.latest(name)!;
    return run(def, brief);
  });
  const inputs = inputTexts(brief);
  const vocabulary = new Set<string>([...COMPOSER_WORDS, ...inputs.flatMap(words)]);
  for (const entry of all) {
    if (entry.format !== "list") for (const word of words(entry.content)) vocabulary.add(word);
    for (const items of Object.values(entry.sections ?? {})) {
      for (const item of items) for (const word of words(item).slice(0, -1)) vocabulary.add(word);
    }
  }

  it("the blog post repeats no 3-word phrase of the inputs more than 3 times, and answers its question", () => {
    const post = all.find((entry) => entry.workflow === "BlogWriter" && entry.format === "html");
    expect(post).toBeDefined();
    expect(repeatedInputPhrases(post!.content, inputs)).toEqual([]);
    expect(unansweredQuestion(post!.content, brief.question.topic, brief.question.facts)).toEqual([]);
  });

  it("no draft repeats a sentence", () => {
    const problems = all
      .filter((entry) => entry.format === "html" || entry.format === "text")
      // An email's subject and preheader lines (above its <hr>) are inbox fields, not its text.
      .flatMap((entry) =>
        repeatedSentences(entry.content.split(/<hr\s*\/?>/).at(-1)!).map(
          (p) => `${entry.workflow}.${entry.step}: ${p}`,
        ),
      );
    expect(problems).toEqual([]);
  });

  it("every limited item keeps its limit without a cut phrase", () => {
    const problems: string[] = [];
    for (const entry of all) {
      for (const [key, items] of Object.entries(entry.sections ?? {})) {
        const max = entry.limits[key];
        if (max === undefined) continue;
        for (const item of items) {
          for (const problem of cutOrOverLimit(item, max, vocabulary))
            problems.push(`${entry.workflow}.${entry.step}.${key}: ${problem}`);
        }
      }
      if (entry.format === "text" && entry.limits.content !== undefined) {
        for (const problem of cutOrOverLimit(plain(entry.content), entry.limits.content, vocabulary)) {
          problems.push(`${entry.workflow}.${entry.step}: ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
