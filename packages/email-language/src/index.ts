/**
 * Smart values: merge fields written in a template as `{{name}}` or `{{name | "fallback"}}`, filled
 * per recipient when an email is sent (contract: docs/email-contract.md, Campaigns REST). Pure.
 */

import escapeHtml from "escape-html";

/** The smart values a template may use, with the label the designer shows. */
export const SMART_VALUES = [
  { name: "contact.firstName", label: "Contact's first name", fallback: "there" },
  { name: "contact.lastName", label: "Contact's last name", fallback: "" },
  { name: "contact.email", label: "Contact's email", fallback: "" },
  { name: "business.name", label: "Business name", fallback: "" },
  { name: "business.address", label: "Business address", fallback: "" },
  { name: "unsubscribe_url", label: "Unsubscribe link", fallback: "" },
  { name: "preferences_url", label: "Preferences link", fallback: "" },
] as const;

export type SmartValueName = (typeof SMART_VALUES)[number]["name"];

/** One smart value found in a text: where it is (UTF-16 offsets, end exclusive), its name and fallback. */
export interface SmartValueToken {
  start: number;
  end: number;
  raw: string;
  name: string;
  /** The quoted fallback, undefined when none was written. */
  fallback: string | undefined;
}

// {{ name }} or {{ name | "fallback" }}; names are dotted identifiers; the fallback is a double-quoted
// string in which \" and \\ are escapes.
const TOKEN = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*(?:\|\s*"((?:[^"\\]|\\.)*)"\s*)?\}\}/g;

/**
 * Undoes HTML escaping inside smart values (`{{contact.firstName | &quot;there&quot;}}`): editors
 * such as GrapesJS escape quotes in text when they write the document out.
 */
export function normalizeSmartValues(text: string): string {
  return text.replace(/\{\{[^{}]*\}\}/g, (token) =>
    token
      .replace(/&quot;|&#0*34;/g, '"')
      .replace(/&#0*39;|&apos;/g, "'")
      .replace(/&amp;/g, "&"),
  );
}

/** Every smart value in `text`, in order. */
export function parseSmartValues(text: string): SmartValueToken[] {
  const found: SmartValueToken[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const start = match.index ?? 0;
    found.push({
      start,
      end: start + match[0].length,
      raw: match[0],
      name: match[1] as string,
      fallback: match[2] === undefined ? undefined : match[2].replace(/\\(.)/g, "$1"),
    });
  }
  return found;
}

/** Writes a smart value as it appears in a template; the fallback is quoted and escaped. */
export function smartValueToken(name: string, fallback?: string): string {
  if (fallback === undefined || fallback === "") return `{{${name}}}`;
  return `{{${name} | "${fallback.replace(/["\\]/g, (c) => `\\${c}`)}"}}`;
}

/**
 * Replaces each smart value with its value, or its fallback when the value is missing or blank
 * (a whitespace-only name is no name), or "" when neither is there. `escape: "html"` escapes what is
 * filled in (values come from contacts, who may type anything); the template's own text is left as is.
 */
export function fillSmartValues(
  text: string,
  values: Readonly<Record<string, string | undefined>>,
  options: { escape?: "html" | "none" } = {},
): string {
  const encode = options.escape === "html" ? escapeHtml : (v: string) => v;
  let out = "";
  let at = 0;
  for (const token of parseSmartValues(text)) {
    const value = values[token.name];
    const filled = value !== undefined && value.trim() !== "" ? value : (token.fallback ?? "");
    out += text.slice(at, token.start) + encode(filled);
    at = token.end;
  }
  return out + text.slice(at);
}

/**
 * Detaches one smart value (the designer's detach modal): the token at `start` becomes the plain
 * `text` given (by default its fallback). Answers the text unchanged when no token starts there.
 */
export function detachSmartValue(source: string, start: number, text?: string): string {
  const token = parseSmartValues(source).find((t) => t.start === start);
  if (!token) return source;
  return source.slice(0, token.start) + (text ?? token.fallback ?? "") + source.slice(token.end);
}

/** The label of a known smart value, or its raw name. */
export function smartValueLabel(name: string): string {
  return SMART_VALUES.find((v) => v.name === name)?.label ?? name;
}
export * from "./craft-draft";
