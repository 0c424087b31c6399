import type { JsonValue } from "@bufbuild/protobuf";
import { cleanDomain, emailError, INVALID_URL_MESSAGE, normalizeUrl } from "@crafter/validation";
import {
  evaluateCondition,
  type InputDefinition,
  type InputRule,
  isEmptyInputValue,
  isIsoDate,
  normalizeColor,
  OBJECT_FIELDS,
  resolveReference,
  type StepDefinition,
  valueShape,
} from "@crafter/workflow-language";
import type { ProfileSnapshot, StepRecord, Values } from "./types";

/** Limits that hold even when a definition sets none, so a craft document stays small. */
export const DEFAULT_MAX_TEXT = 5000;
export const DEFAULT_MAX_ITEMS = 50;
export const MAX_ITEM_LENGTH = 500;

/** Kind-specific shape of a coerced value: colours, dates and the object kinds. */
function kindShape(input: InputDefinition, value: JsonValue | undefined): JsonValue | undefined | Error {
  if (value === undefined || (typeof value === "string" && value === "")) return value;
  if (input.kind === "colorPicker") {
    return normalizeColor(String(value)) ?? new Error(`${input.label} must be a colour like #1a2b3c`);
  }
  if (input.kind === "datePicker") {
    return isIsoDate(String(value)) ? value : new Error(`${input.label} must be a date YYYY-MM-DD`);
  }
  const object = (OBJECT_FIELDS as Record<string, { fields: readonly string[]; label: string } | undefined>)[
    input.kind
  ];
  if (!object) return value;
  if (!value || typeof value !== "object" || Array.isArray(value))
    return new Error(`${input.label} must be ${object.label}`);
  const picked: Record<string, string> = {};
  for (const field of object.fields) {
    const part = value[field];
    if (typeof part !== "string" || part.trim() === "") return new Error(`${input.label} must be ${object.label}`);
    picked[field] = part.trim();
  }
  if (input.kind === "dateRangePicker") {
    if (!isIsoDate(picked.start!) || !isIsoDate(picked.end!))
      return new Error(`${input.label} must hold dates YYYY-MM-DD`);
    if (picked.start! > picked.end!) return new Error(`${input.label} must start before it ends`);
  }
  return picked;
}

/**
 * Coerces a value into the shape its input kind holds: text from a list joins it, a list from
 * text splits it (chips on commas, bullet points on lines). Used for prefills and client values.
 * @returns the value, undefined for "nothing", or an Error naming what is wrong.
 */
export function coerceValue(input: InputDefinition, value: unknown): JsonValue | undefined | Error {
  const base = coerceBase(input, value);
  return base instanceof Error ? base : kindShape(input, base);
}

function coerceBase(input: InputDefinition, value: unknown): JsonValue | undefined | Error {
  if (value === undefined || value === null) return undefined;
  switch (valueShape(input.kind)) {
    case "text":
      if (typeof value === "string") return value.trim();
      if (typeof value === "number" || typeof value === "boolean") return String(value);
      if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value.join(", ");
      return new Error(`${input.label} must be text`);
    case "number": {
      if (typeof value === "string" && value.trim() === "") return undefined;
      const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
      return Number.isFinite(number) ? number : new Error(`${input.label} must be a number`);
    }
    case "list": {
      const raw =
        typeof value === "string"
          ? value.split(input.kind === "chipText" ? /[,\n]/ : /\n/)
          : Array.isArray(value)
            ? value
            : null;
      if (!raw?.every((item) => typeof item === "string" || typeof item === "number")) {
        return new Error(`${input.label} must be a list of text`);
      }
      const items = raw
        .map((item) =>
          String(item)
            .replace(/^\s*(?:[-*•]|\d+[.)])\s+/, "")
            .trim(),
        )
        .filter(Boolean);
      if (input.kind !== "chipText") return items;
      const seen = new Set<string>();
      return items.filter((item) => !seen.has(item.toLowerCase()) && seen.add(item.toLowerCase()));
    }
    default:
      return value as JsonValue;
  }
}

export interface InputCheck {
  /** The step's values, normalised (trimmed, coerced, unknown names dropped). */
  values: Values;
  /** Broken Must rules (and malformed values), by input name. */
  errors: Record<string, string>;
  /** Broken Should rules, by input name. */
  warnings: Record<string, string>;
}

/**
 * Validates a step's values against its inputs.
 * - "save": shape and size only, so a half-filled form can be kept;
 * - "complete": also required inputs, options, formats and the definition's Must rules (errors)
 *   and Should rules (warnings).
 */
export function checkInputs(
  step: StepDefinition,
  raw: Record<string, unknown>,
  mode: "save" | "complete",
  context: VisibilityContext = { profile: null, steps: [] },
): InputCheck {
  const values: Values = {};
  const errors: Record<string, string> = {};
  const warnings: Record<string, string> = {};
  const hidden = hiddenInputs(step, raw, context);

  for (const input of step.inputs) {
    // A hidden input is not validated and not saved (so it is in no prompt either).
    if (hidden.has(input.name)) continue;
    const coerced = coerceValue(input, raw[input.name]);
    if (coerced instanceof Error) {
      errors[input.name] = coerced.message;
      continue;
    }
    let value = coerced;
    const sizeProblem = checkSize(input, value);
    if (sizeProblem) {
      errors[input.name] = sizeProblem;
      continue;
    }
    if (mode === "complete") {
      if (isEmptyInputValue(value)) {
        // An optional input may stay empty; its Should rules may still advise filling it.
        if (input.required) errors[input.name] = `${input.label} is required`;
        else {
          const advice = checkRules(input.rules, value ?? (valueShape(input.kind) === "list" ? [] : ""), "Should");
          if (advice) warnings[input.name] = advice;
        }
        if (value !== undefined) values[input.name] = value;
        continue;
      }
      const formatted = checkFormat(input, value!);
      if (formatted instanceof Error) {
        errors[input.name] = formatted.message;
        continue;
      }
      value = formatted;
      const boundProblem = checkBounds(input, value);
      if (boundProblem) {
        errors[input.name] = boundProblem;
        continue;
      }
      const ruleProblem = checkRules(input.rules, value, "Must");
      if (ruleProblem) {
        errors[input.name] = ruleProblem;
        continue;
      }
      const advice = checkRules(input.rules, value, "Should");
      if (advice) warnings[input.name] = advice;
    }
    if (value !== undefined) values[input.name] = value;
  }
  return { values, errors, warnings };
}

function checkSize(input: InputDefinition, value: JsonValue | undefined): string | null {
  if (typeof value === "string") {
    const max = input.maxLength ?? DEFAULT_MAX_TEXT;
    return value.length > max ? `${input.label} must be at most ${max} characters` : null;
  }
  if (Array.isArray(value) && valueShape(input.kind) === "list") {
    const max = input.maxItems ?? DEFAULT_MAX_ITEMS;
    if (value.length > max) return `${input.label} can have at most ${max} items`;
    const itemMax = Math.min(input.maxLength ?? MAX_ITEM_LENGTH, MAX_ITEM_LENGTH);
    if (value.some((item) => String(item).length > itemMax)) {
      return `Each item of ${input.label} must be at most ${itemMax} characters`;
    }
  }
  if (valueShape(input.kind) === "object" && JSON.stringify(value ?? null).length > DEFAULT_MAX_TEXT * 4) {
    return `${input.label} is too large`;
  }
  return null;
}

/** What showWhen conditions are evaluated against besides the step's own values. */
export interface VisibilityContext {
  profile: ProfileSnapshot | null;
  steps: StepRecord[];
}

/**
 * The inputs of a step whose showWhen is false for these values. Conditions read the values as
 * coerced to their inputs' shapes (so `"5"` of a number input compares as 5).
 */
export function hiddenInputs(
  step: StepDefinition,
  raw: Record<string, unknown>,
  context: VisibilityContext,
): Set<string> {
  const hidden = new Set<string>();
  if (!step.inputs.some((input) => input.showWhen)) return hidden;
  const values: Values = {};
  for (const input of step.inputs) {
    const coerced = coerceValue(input, raw[input.name]);
    if (coerced !== undefined && !(coerced instanceof Error)) values[input.name] = coerced;
  }
  const scope = { profile: context.profile, steps: context.steps, values };
  for (const input of step.inputs) {
    if (input.showWhen && !evaluateCondition(input.showWhen, (ref) => resolveReference(ref, scope))) {
      hidden.add(input.name);
    }
  }
  return hidden;
}

/** The input's own min / max (numbers, or dates as `YYYY-MM-DD`, both ends of a range). */
function checkBounds(input: InputDefinition, value: JsonValue): string | null {
  for (const check of ["min", "max"] as const) {
    const bound = input[check];
    if (bound === undefined) continue;
    if (!boundHolds(check, bound, value)) {
      return `${input.label} must be ${check === "min" ? "at least" : "at most"} ${bound}`;
    }
  }
  return null;
}

/** Options (select, radioSelect), URLs, emails and domains; the normalised value or an Error. */
function checkFormat(input: InputDefinition, value: JsonValue): JsonValue | Error {
  const choice = input.kind === "select" || input.kind === "radioSelect";
  if (choice && input.options && typeof value === "string" && !input.options.some((option) => option.value === value)) {
    return new Error(`Choose one of: ${input.options.map((option) => option.label).join(", ")}`);
  }
  const format = input.format ?? (input.kind === "url" ? "Url" : undefined);
  if (!format || typeof value !== "string") return value;
  return applyFormat(format, value);
}

function applyFormat(format: string, value: string): string | Error {
  if (format === "Url") return normalizeUrl(value, { allowSchemeless: true }) ?? new Error(INVALID_URL_MESSAGE);
  if (format === "Email") {
    const problem = emailError(value);
    return problem ? new Error(problem) : value.trim();
  }
  // DomainName: a bare host name, as the URL rule checks hosts.
  const domain = cleanDomain(value).replace(/\/.*$/, "");
  return normalizeUrl(`https://${domain}`) ? domain.toLowerCase() : new Error("Invalid domain name");
}

/** The message of the first broken rule of `strength`, or null. */
function checkRules(rules: InputRule[], value: JsonValue, strength: "Must" | "Should"): string | null {
  for (const rule of rules) {
    if (rule.strength !== strength) continue;
    if (!ruleHolds(rule, value)) return rule.message;
  }
  return null;
}

function ruleHolds(rule: InputRule, value: JsonValue): boolean {
  const length = typeof value === "string" ? value.length : Array.isArray(value) ? value.length : 0;
  const limit = Number(rule.value);
  switch (rule.check) {
    case "minLength":
    case "minItems":
      return length >= limit;
    case "maxLength":
    case "maxItems":
      return length <= limit;
    case "pattern": {
      const pattern = new RegExp(String(rule.value));
      const items = Array.isArray(value) ? value : [value];
      return items.every((item) => pattern.test(String(item)));
    }
    case "format":
      return typeof value !== "string" || !(applyFormat(String(rule.value), value) instanceof Error);
    case "min":
    case "max":
      return boundHolds(rule.check, rule.value, value);
  }
}

/** min / max of a number, a date (`YYYY-MM-DD` orders as text) or both ends of a date range. */
function boundHolds(check: "min" | "max", bound: number | string, value: JsonValue): boolean {
  const points: JsonValue[] =
    value && typeof value === "object" && !Array.isArray(value) ? [value.start ?? null, value.end ?? null] : [value];
  return points.every((point) => {
    if (point === null || point === undefined || point === "") return true;
    if (typeof bound === "number") {
      const number = Number(point);
      return Number.isFinite(number) && (check === "min" ? number >= bound : number <= bound);
    }
    const text = String(point);
    return check === "min" ? text >= bound : text <= bound;
  });
}
