import type { InputKind } from "./kinds";

/**
 * The value shape of each input kind (docs/engine-contract.md section 5), shared by the engine,
 * which checks and coerces what it is sent, and the web, which sends it:
 * - text: a string (colours `#rrggbb`, dates `YYYY-MM-DD`, craft ids, option values);
 * - number: a finite number;
 * - list: an array of strings;
 * - object: dateRangePicker `{ start, end }`, contextSelector `{ profileId, profileType }`,
 *   thirdPartyObjectPicker `{ provider, id, title }`.
 */
export type ValueShape = "text" | "number" | "list" | "object";

export const VALUE_SHAPES: Record<InputKind, ValueShape> = {
  text: "text",
  url: "text",
  select: "text",
  radioSelect: "text",
  autoComplete: "text",
  colorPicker: "text",
  font: "text",
  datePicker: "text",
  InlineTextGenerator: "text",
  craftPicker: "text",
  inlineCraftPicker: "text",
  number: "number",
  slider: "number",
  chipText: "list",
  bulletPoint: "list",
  dateRangePicker: "object",
  contextSelector: "object",
  thirdPartyObjectPicker: "object",
};

/** The shape of a kind's value; "object" for a kind the language does not know. */
export function valueShape(kind: string): ValueShape {
  return (VALUE_SHAPES as Record<string, ValueShape | undefined>)[kind] ?? "object";
}

/** The fields of the object kinds, each a non-empty string. */
export const OBJECT_FIELDS = {
  dateRangePicker: { fields: ["start", "end"], label: "a date range { start, end }" },
  contextSelector: { fields: ["profileId", "profileType"], label: "a profile { profileId, profileType }" },
  thirdPartyObjectPicker: { fields: ["provider", "id", "title"], label: "an object { provider, id, title }" },
} as const satisfies Partial<Record<InputKind, { fields: readonly string[]; label: string }>>;

/** A date as the datePicker holds it. */
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** A colour as typed: `#abc` or `#aabbcc` (the `#` may be left out), any case. */
export const COLOR_PATTERN = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(text: string): boolean {
  if (!DATE_PATTERN.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** `#abc` / `ABCDEF` / `#AbCdEf` → the lowercase `#rrggbb` the colorPicker holds; null when not a colour. */
export function normalizeColor(value: unknown): string | null {
  const text = typeof value === "string" ? value.trim() : "";
  const match = text.match(COLOR_PATTERN);
  if (!match) return null;
  const hex = match[1]!.toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex}`;
}

/** The empty value of a kind: [] for lists, null for numbers and objects, "" for text. */
export function emptyValueFor(kind: string): [] | null | "" {
  const shape = valueShape(kind);
  if (shape === "list") return [];
  return shape === "text" ? "" : null;
}

/** Nothing there: undefined, null, blank text or an empty list. */
export function isEmptyInputValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === "string" && value.trim() === "") ||
    (Array.isArray(value) && value.length === 0)
  );
}
