import type { JsonValue } from "@bufbuild/protobuf";
import { isBlankHtml, sanitizeHtml } from "@crafter/html";
import type { OutputSpec } from "@crafter/workflow-language";
import escapeHtml from "escape-html";

/** Generated text (or a function's data) turned into what a step stores and shows. */
export interface ShapedOutput {
  content: string;
  format: "text" | "html" | "list" | "data";
  sections?: Record<string, string[]>;
  data?: JsonValue;
}

/** Sentence ends: the text before one is a whole sentence. */
const SENTENCE_END = /(?<=[.!?…])\s+(?=\S)/u;
/** Clause separators: the text before one is a whole phrase (never "or it", "for the"). */
const CLAUSE = /\s*(?:[,;:|]|\s[–—-]\s|\s\()\s*/u;
const TRAILING = /[\s,;:|–—-]+$/u;

/**
 * Keeps text within `maxChars` by writing less, never by cutting a phrase: the leading whole
 * sentences that fit, else the leading whole clauses of the first sentence (split at , ; : | – — or
 * an opening parenthesis), else "" (nothing fits: the caller drops the item).
 */
export function fitPhrases(text: string, maxChars: number | undefined): string {
  const trimmed = text.trim();
  if (maxChars === undefined || trimmed.length <= maxChars) return trimmed;
  // Whole sentences or lines (a heading has no full stop), each with the space or break that followed it.
  const parts = trimmed.split(/((?<=[.!?…])\s+|\s*\n\s*)(?=\S)/u);
  let kept = "";
  for (let i = 0; i < parts.length; i += 2) {
    const next = kept + (i > 0 ? parts[i - 1] : "") + parts[i];
    if (next.length > maxChars) break;
    kept = next;
  }
  if (kept) return kept;
  const clean = trimmed.replace(/\s+/g, " ");
  const sentences = clean.split(SENTENCE_END);
  const clauses = (sentences[0] ?? "").split(CLAUSE).filter(Boolean);
  let phrase = "";
  const separators = (sentences[0] ?? "").match(new RegExp(CLAUSE.source, "gu")) ?? [];
  for (let i = 0; i < clauses.length; i++) {
    const next = i === 0 ? clauses[0]! : `${phrase}${separators[i - 1] ?? " "}${clauses[i]}`;
    if (next.replace(TRAILING, "").length > maxChars) break;
    phrase = next;
  }
  // A lone clause must be a phrase of at least two words ("Same-day puncture repair"), not a stub.
  const result = phrase.replace(TRAILING, "").replace(/\s\($/, "").trim();
  return result.length <= maxChars && result.split(" ").length >= 2 ? result : "";
}

/**
 * Fits text to a platform limit of `maxChars` characters (every engine): see fitPhrases; "" when no
 * whole phrase of it fits.
 */
export function fitToLimit(text: string, maxChars: number | undefined): string {
  return fitPhrases(text, maxChars);
}

/** A list item from a function's data: a string, or an object's first text field. */
function dataItem(item: JsonValue): string | null {
  if (typeof item === "string") return item;
  if (typeof item === "number") return String(item);
  if (item && typeof item === "object" && !Array.isArray(item)) {
    const text = Object.values(item).find((value) => typeof value === "string");
    return typeof text === "string" ? text : null;
  }
  return null;
}

/** A FunctionCaller's answer as a result: its content and data, and the sections the output names. */
export function shapeData(output: OutputSpec, answer: { content: string; data: JsonValue }): ShapedOutput {
  const sections: Record<string, string[]> = {};
  if (output.format === "data" && output.sections) {
    const record = answer.data && typeof answer.data === "object" && !Array.isArray(answer.data) ? answer.data : {};
    for (const section of output.sections) {
      const raw = record[section.key];
      const items = Array.isArray(raw) ? raw.map(dataItem).filter((item): item is string => !!item) : [];
      sections[section.key] = items.map((item) => fitToLimit(item, section.maxChars)).filter(Boolean);
    }
  }
  return {
    content: answer.content,
    format: "data",
    data: answer.data,
    ...(Object.keys(sections).length > 0 ? { sections } : {}),
  };
}

/** The generated text does not have the shape the step asked for. */
export class MalformedOutputError extends Error {
  override name = "MalformedOutputError";
}

/**
 * Turns the text an engine wrote into the step's result: a list is parsed into its sections, HTML
 * is sanitised, plain text is trimmed.
 * @throws MalformedOutputError when the text is empty or a list section has too few items.
 */
export function shapeOutput(output: OutputSpec, text: string): ShapedOutput {
  const cleaned = stripFences(text);
  if (cleaned === "") throw new MalformedOutputError("the engine wrote nothing");
  if (output.format === "data") throw new MalformedOutputError("data is written by a function, not an engine");
  if (output.format === "text") {
    const content = fitToLimit(cleaned, output.maxChars);
    if (content === "") throw new MalformedOutputError(`no whole phrase fits in ${output.maxChars} characters`);
    return { content, format: "text" };
  }
  if (output.format === "html") {
    const html = sanitizeHtml(cleaned.includes("<") ? cleaned : paragraphs(cleaned));
    if (isBlankHtml(html)) throw new MalformedOutputError("the HTML has no text");
    return { content: html, format: "html" };
  }
  const sections = parseSections(cleaned, output.sections);
  for (const section of output.sections) {
    // Platform limits hold for every engine: an item too long keeps its leading whole phrases, or is dropped.
    if (section.maxChars !== undefined) {
      sections[section.key] = (sections[section.key] ?? [])
        .map((item) => fitToLimit(item, section.maxChars))
        .filter(Boolean);
    }
    if ((sections[section.key]?.length ?? 0) < section.minItems) {
      throw new MalformedOutputError(`section "${section.heading}" has fewer than ${section.minItems} items`);
    }
  }
  const content = output.sections
    .map((section) => [`## ${section.heading}`, ...(sections[section.key] ?? []).map((item) => `- ${item}`)].join("\n"))
    .join("\n\n");
  return { content, format: "list", sections };
}

/** Models like to wrap answers in ``` fences; the content is what is inside. */
function stripFences(text: string): string {
  const trimmed = text.trim();
  const fenced = trimmed.match(/^```[a-z]*\s*\n([\s\S]*?)\n?```$/i);
  return (fenced ? fenced[1]! : trimmed).trim();
}

const ITEM = /^\s*(?:[-*•+]|\d+[.)])\s+(.+)$/;

function cleanItem(text: string): string {
  return text
    .replace(/\*\*|__/g, "")
    .replace(/^["“'](.*)["”']$/, "$1")
    .trim();
}

function headingKey(line: string, sections: { key: string; heading: string }[]): string | undefined {
  const bare = line
    .trim()
    .replace(/^#+\s*/, "")
    .replace(/\*\*|__/g, "")
    .replace(/:$/, "")
    .trim()
    .toLowerCase();
  if (!bare) return undefined;
  return sections.find(
    (section) => bare === section.heading.toLowerCase() || bare.startsWith(section.heading.toLowerCase()),
  )?.key;
}

/**
 * Reads `## Heading` (or `Heading:` / `**Heading**`) lines and the `- item` / `1. item` lines under
 * them. Items before any heading belong to the first section.
 */
export function parseSections(text: string, sections: { key: string; heading: string }[]): Record<string, string[]> {
  const result: Record<string, string[]> = Object.fromEntries(sections.map((section) => [section.key, []]));
  let current = sections[0]!.key;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const item = line.match(ITEM);
    const key = item ? undefined : headingKey(line, sections);
    if (key) {
      current = key;
    } else if (item) {
      const text = cleanItem(item[1]!);
      if (text) result[current]!.push(text);
    }
  }
  return result;
}

function paragraphs(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => `<p>${escapeHtml(block)}</p>`)
    .join("\n");
}
