/** A JSON value (the same shape as @bufbuild/protobuf's JsonValue). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The profile fields a definition may prefill from or write into a prompt. */
export const PROFILE_FIELDS = ["name", "description", "audience", "keywords", "websiteUrl"] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

/**
 * A pointer from a definition into the craft's data:
 * - `profile.<field>`: the profile snapshot taken when the craft was created;
 * - `values.<input>`: the current step's values (prompts only);
 * - `steps.<step>.values.<input>`: an earlier step's values;
 * - `steps.<step>.result.<section>` / `…<section>[0]` / `steps.<step>.result.content`: the latest
 *   result of an earlier step (a list section, its first item, or the whole text).
 */
export type Reference =
  | { source: "profile"; field: ProfileField }
  | { source: "values"; step: string | null; input: string }
  | { source: "result"; step: string; part: string; first: boolean }
  | { source: "item"; field: "item" | "itemIndex" }
  | { source: "params"; key: string };

const PATTERNS: [RegExp, (m: RegExpMatchArray) => Reference][] = [
  [/^profile\.(\w+)$/, (m) => ({ source: "profile", field: m[1] as ProfileField })],
  [/^values\.(\w+)$/, (m) => ({ source: "values", step: null, input: m[1]! })],
  [/^steps\.(\w+)\.values\.(\w+)$/, (m) => ({ source: "values", step: m[1]!, input: m[2]! })],
  [/^steps\.(\w+)\.result\.(\w+)(\[0\])?$/, (m) => ({ source: "result", step: m[1]!, part: m[2]!, first: !!m[3] })],
  [/^(item|itemIndex)$/, (m) => ({ source: "item", field: m[1] as "item" | "itemIndex" })],
  [/^params\.(\w+)$/, (m) => ({ source: "params", key: m[1]! })],
];

export function parseReference(text: string): Reference | null {
  const trimmed = text.trim();
  for (const [pattern, build] of PATTERNS) {
    const match = trimmed.match(pattern);
    if (match) return build(match);
  }
  return null;
}

interface StepShape {
  name: string;
  inputs: { name: string }[];
  action?: { kind: string; output?: { format: string; sections?: { key: string }[] } };
}

/** What else a place of a definition may refer to. */
export interface ReferencePlace {
  /** `{{item}}` / `{{itemIndex}}`: the action of an IteratorStep. */
  item?: boolean;
  /** `{{params.<key>}}`: the raw params of an inline text generation (e.g. the selected text). */
  params?: boolean;
}

/**
 * Why a reference cannot be resolved in this place of a definition, or null when it can.
 * @param earlier the steps before the one holding the reference.
 * @param current the step whose prompt holds it (`values.x` allowed), or null for a defaultFrom.
 */
export function referenceProblem(
  text: string,
  earlier: StepShape[],
  current: StepShape | null,
  place: ReferencePlace = {},
): string | null {
  const ref = parseReference(text);
  if (!ref) {
    return `"${text}" is not a reference (profile.<field>, steps.<step>.values.<input>, steps.<step>.result.<section>)`;
  }
  if (ref.source === "item") return place.item ? null : `{{${ref.field}}} is only allowed in an IteratorStep's action`;
  if (ref.source === "params") return place.params ? null : "params.<key> is only allowed in inline text generators";
  if (ref.source === "profile") {
    return (PROFILE_FIELDS as readonly string[]).includes(ref.field)
      ? null
      : `unknown profile field "${ref.field}" (known: ${PROFILE_FIELDS.join(", ")})`;
  }
  if (ref.source === "values" && ref.step === null) {
    if (!current) return "values.<input> is only allowed in prompts; use steps.<step>.values.<input>";
    return current.inputs.some((input) => input.name === ref.input)
      ? null
      : `step "${current.name}" has no input "${ref.input}"`;
  }
  const step = earlier.find((candidate) => candidate.name === ref.step);
  if (!step) return `"${ref.step}" is not an earlier step`;
  if (ref.source === "values") {
    return step.inputs.some((input) => input.name === ref.input)
      ? null
      : `step "${step.name}" has no input "${ref.input}"`;
  }
  if (!step.action?.output) return `step "${step.name}" has no action writing a result`;
  if (ref.part === "content") return ref.first ? "content is text, it has no [0]" : null;
  const sections = step.action.output.sections?.map((section) => section.key) ?? [];
  return sections.includes(ref.part)
    ? null
    : `step "${step.name}" has no result section "${ref.part}" (sections: ${sections.join(", ") || "none"})`;
}

/** What a reference reads of a step: its values and its results, oldest first. */
export interface ReferenceStep {
  name: string;
  values: Record<string, JsonValue>;
  results: { content: string; sections?: Record<string, string[]> }[];
}

export interface ReferenceScope {
  /** The profile snapshot of the craft (its fields by name). */
  profile: { [field in ProfileField]?: JsonValue } | null;
  steps: ReferenceStep[];
  /** The values of the step being completed, for `values.<input>`. */
  values?: Record<string, JsonValue>;
  /** The item an IteratorStep's action runs for, and its index (from 0). */
  item?: JsonValue;
  itemIndex?: number;
  /** The raw params of an inline text generation. */
  params?: Record<string, JsonValue>;
}

/** The latest result of a step (results are kept oldest first). */
export function latestResult<S extends ReferenceStep>(step: S | undefined): S["results"][number] | undefined {
  return step?.results[step.results.length - 1];
}

/** Resolves a reference against the craft's data; undefined when there is nothing there yet. */
export function resolveReference(text: string, scope: ReferenceScope): JsonValue | undefined {
  const ref = parseReference(text);
  if (!ref) return undefined;
  if (ref.source === "item") return ref.field === "item" ? scope.item : scope.itemIndex;
  if (ref.source === "params") return scope.params?.[ref.key];
  if (ref.source === "profile") {
    const value = scope.profile?.[ref.field];
    return value;
  }
  if (ref.source === "values") {
    const values = ref.step === null ? scope.values : scope.steps.find((step) => step.name === ref.step)?.values;
    return values?.[ref.input];
  }
  const result = latestResult(scope.steps.find((step) => step.name === ref.step));
  if (!result) return undefined;
  if (ref.part === "content") return result.content;
  const items = result.sections?.[ref.part];
  if (!items) return undefined;
  return ref.first ? items[0] : items;
}
