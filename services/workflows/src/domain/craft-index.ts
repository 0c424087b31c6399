/**
 * What a craft is called and found by, derived from its steps (pure).
 *
 * Naming: until the user names a craft, it is named from its content — a chosen `title`, `subject`
 * or `headline` value, else the first (selected) title, subject or headline a step generated,
 * else the first heading of an HTML draft, else the topic it was given.
 *
 * Search (ADR 0001: equality and "array contains" are pushed down to the database, never `$regex`): a craft
 * stores `searchTokens`, the normalised words of its name with every prefix from 2 characters on,
 * and the whole words of its values and results. A query matches when each of its words is a token.
 */
import type { JsonValue } from "@bufbuild/protobuf";
import { htmlToLine } from "@crafter/html";
import type { ResultRecord, StepRecord } from "./types";

/** A name is at most this long (as a user-given one, MAX_CRAFT_NAME). */
export const MAX_NAME = 120;
/** Name words keep prefixes up to this length; a longer query word is cut to it. */
export const MAX_PREFIX = 16;
const MIN_PREFIX = 2;
/** Text tokens kept per craft (a long post has a few hundred distinct words). */
export const MAX_TEXT_TOKENS = 3000;

const NAME_VALUES = ["title", "subject", "headline", "name"];
const NAME_SECTIONS = ["titles", "subjects", "headlines", "names"];
const TOPIC_VALUES = ["topic", "offering", "productName", "serviceName", "campaignName", "businessName"];

/** Lower case, accents folded, everything but letters and digits a separator. */
export function words(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** Text of HTML on one line: see htmlToLine. */
export const plainText = htmlToLine;

/** A single line at most MAX_NAME long, shortened at a word boundary with an ellipsis. */
export function nameOf(text: string): string {
  const line = plainText(text)
    .replace(/^#+\s*/, "")
    .trim();
  if (line.length <= MAX_NAME) return line;
  const cut = line.slice(0, MAX_NAME - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > 40 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, "")}…`;
}

function stringValue(value: JsonValue | undefined): string {
  return typeof value === "string" ? value.trim() : "";
}

function orderedResults(step: StepRecord): ResultRecord[] {
  const selected = step.results.filter((result) => result.selected);
  return [...selected, ...step.results.filter((result) => !result.selected)];
}

function firstHeading(html: string): string {
  const match = /<h[1-3][^>]*>([\s\S]*?)<\/h[1-3]>/i.exec(html);
  return match ? plainText(match[1] ?? "") : "";
}

/** The name the craft's content gives it, or "" while it has none. */
export function contentName(steps: readonly StepRecord[]): string {
  for (const key of NAME_VALUES) {
    for (const step of steps) {
      const value = stringValue(step.values[key]);
      if (value) return nameOf(value);
    }
  }
  for (const step of steps) {
    for (const result of orderedResults(step)) {
      for (const key of NAME_SECTIONS) {
        const first = result.sections?.[key]?.find((item) => item.trim());
        if (first) return nameOf(first);
      }
    }
  }
  for (const step of steps) {
    for (const result of orderedResults(step)) {
      if (result.format !== "html") continue;
      const heading = firstHeading(result.content);
      if (heading) return nameOf(heading);
    }
  }
  for (const key of TOPIC_VALUES) {
    for (const step of steps) {
      const value = stringValue(step.values[key]);
      if (value) return nameOf(value);
    }
  }
  return "";
}

function valueTexts(value: JsonValue | undefined, out: string[]): void {
  if (typeof value === "string") out.push(value);
  else if (typeof value === "number") out.push(String(value));
  else if (Array.isArray(value)) for (const item of value) valueTexts(item, out);
  else if (value && typeof value === "object") for (const item of Object.values(value)) valueTexts(item, out);
}

/** Tokens of a craft: name words and their prefixes, then the whole words of its values and results. */
export function searchTokens(names: readonly string[], steps: readonly StepRecord[]): string[] {
  const tokens = new Set<string>();
  for (const name of names) {
    for (const word of words(name)) {
      const longest = Math.min(word.length, MAX_PREFIX);
      for (let end = Math.min(MIN_PREFIX, longest); end <= longest; end++) tokens.add(word.slice(0, end));
    }
  }
  const texts: string[] = [];
  for (const step of steps) {
    valueTexts(step.values as JsonValue, texts);
    for (const result of step.results) {
      texts.push(result.format === "html" ? plainText(result.content) : result.content);
    }
  }
  for (const text of texts) {
    for (const word of words(text)) {
      if (tokens.size >= MAX_TEXT_TOKENS) return [...tokens];
      tokens.add(word.slice(0, MAX_PREFIX));
    }
  }
  return [...tokens];
}

/** The tokens a query must all match, longest (most selective) first; empty for a blank query. */
export function queryTokens(query: string): string[] {
  const unique = new Set(words(query).map((word) => word.slice(0, MAX_PREFIX)));
  return [...unique].sort((a, b) => b.length - a.length);
}

/** The name shown for a craft: the user's, else its content's, else the one it was created with. */
export function displayName(craft: { craftName: string; nameFromUser?: boolean; contentName?: string }): string {
  if (craft.nameFromUser) return craft.craftName;
  return craft.contentName || craft.craftName;
}
