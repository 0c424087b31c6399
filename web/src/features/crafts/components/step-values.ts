import { INVALID_URL_MESSAGE, isEmptyValue, isValidUrl } from "@crafter/validation";
import {
  COLOR_PATTERN,
  DATE_PATTERN,
  emptyValueFor,
  normalizeColor as normalizeColorOrNull,
  valueShape,
} from "@crafter/workflow-language";
import type { CraftStep, StepInput } from "../../../api/types";
import { humanize } from "../../../shared/format";
import { type ConditionScope, evaluateCondition, referenceScope } from "../conditions";

/**
 * Pure rules of a FormStep's inputs (no React): defaults, the value shape of each kind
 * (docs/engine-contract.md section 5), live visibility, validation and the values sent to the
 * server. The components that render each kind live in inputs.tsx.
 */
export type StepValues = Record<string, unknown>;
export type { ConditionScope } from "../conditions";

export interface DateRange {
  start: string;
  end: string;
}
export interface ContextValue {
  profileId: string;
  profileType: string;
}
export interface ThirdPartyObject {
  provider: string;
  id: string;
  title: string;
}

export function labelOf(input: StepInput): string {
  return input.label?.trim() || humanize(input.name);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `#abc` / `ABCDEF` / `#AbCdEf` → lowercase `#rrggbb` (the language's rule); anything else → "". */
export function normalizeColor(value: unknown): string {
  return normalizeColorOrNull(value) ?? "";
}

/**
 * Any stored or typed value in the shape its kind sends (engine contract section 5). Values of
 * the wrong shape become the kind's empty value rather than reaching the server half-formed.
 */
export function shapeValue(kind: string, value: unknown): unknown {
  if (value === undefined || value === null) return emptyValueFor(kind);
  if (valueShape(kind) === "list") {
    const items = Array.isArray(value) ? value : [value];
    return items
      .map((item) => (typeof item === "string" ? item.trim() : item == null ? "" : String(item)))
      .filter((item) => item !== "");
  }
  if (valueShape(kind) === "number") {
    if (value === "") return null;
    const number = typeof value === "number" ? value : Number(value);
    return Number.isFinite(number) ? number : null;
  }
  switch (kind) {
    case "colorPicker":
      return normalizeColor(value);
    case "datePicker":
      return typeof value === "string" && DATE_PATTERN.test(value.trim()) ? value.trim() : "";
    case "dateRangePicker": {
      if (!isRecord(value)) return null;
      const start = typeof value.start === "string" ? value.start : "";
      const end = typeof value.end === "string" ? value.end : "";
      return DATE_PATTERN.test(start) && DATE_PATTERN.test(end) ? { start, end } : null;
    }
    case "contextSelector": {
      if (!isRecord(value) || typeof value.profileId !== "string" || !value.profileId) return null;
      return { profileId: value.profileId, profileType: String(value.profileType ?? "PROJECT") };
    }
    case "thirdPartyObjectPicker": {
      if (!isRecord(value) || typeof value.id !== "string" || !value.id) return null;
      return { provider: String(value.provider ?? ""), id: value.id, title: String(value.title ?? "") };
    }
    default:
      // text, url, autoComplete, font, select, radioSelect, InlineTextGenerator, craftPicker,
      // inlineCraftPicker: strings (select options may be numbers; kept as given).
      if (typeof value === "number" && (kind === "select" || kind === "radioSelect")) return value;
      return typeof value === "string" ? value.trim() : typeof value === "object" ? "" : String(value);
  }
}

/** Saved values first, then the definition's default, then the kind's empty value. */
export function initialValues(step: CraftStep): StepValues {
  const values: StepValues = {};
  for (const input of step.inputs ?? []) {
    const saved = step.values?.[input.name];
    const value = saved !== undefined && saved !== null ? saved : (input.defaultValue ?? emptyValueFor(input.kind));
    if (valueShape(input.kind) === "list") {
      values[input.name] = Array.isArray(value) ? value : value ? [String(value)] : [];
    } else if (input.kind === "colorPicker") {
      values[input.name] = normalizeColor(value);
    } else {
      values[input.name] = value;
    }
  }
  return values;
}

/** The scope a step's conditions read: its own live values, the other steps, the profile. */
export function conditionScope(
  values: StepValues,
  steps: CraftStep[] = [],
  profile?: Record<string, unknown> | null,
): ConditionScope {
  return referenceScope(values, steps, profile);
}

/** True when the input shows for these values (its showWhen holds, or it has none). */
export function isVisible(input: StepInput, scope: ConditionScope): boolean {
  return input.showWhen === undefined || input.showWhen === null || evaluateCondition(input.showWhen, scope);
}

export function visibleInputs(inputs: StepInput[], scope: ConditionScope): StepInput[] {
  return inputs.filter((input) => isVisible(input, scope));
}

function isBlank(kind: string, value: unknown): boolean {
  const shaped = shapeValue(kind, value);
  if (Array.isArray(shaped)) return shaped.length === 0;
  return shaped === null || isEmptyValue(shaped);
}

function bound(value: number | string | undefined): number | undefined {
  return typeof value === "number" ? value : undefined;
}
function dateBound(value: number | string | undefined): string | undefined {
  return typeof value === "string" && DATE_PATTERN.test(value) ? value : undefined;
}

function checkDate(label: string, date: string, input: StepInput): string | null {
  const min = dateBound(input.min);
  const max = dateBound(input.max);
  if (min && date < min) return `${label} must be on or after ${min}`;
  if (max && date > max) return `${label} must be on or before ${max}`;
  return null;
}

/** The message for one input's value, or null when it is valid. */
export function validateInput(input: StepInput, value: unknown): string | null {
  const label = labelOf(input);
  if (isBlank(input.kind, value)) return input.required ? `${label} is required` : null;
  if (Array.isArray(value)) {
    const items = value.filter((item) => !isEmptyValue(item));
    if (input.maxItems !== undefined && items.length > input.maxItems)
      return `${label}: at most ${input.maxItems} items`;
    if (input.maxLength !== undefined && items.some((item) => String(item).trim().length > input.maxLength!)) {
      return `${label}: each item must be at most ${input.maxLength} characters`;
    }
  } else if (typeof value === "string" && input.maxLength !== undefined && value.trim().length > input.maxLength) {
    return `${label} must be at most ${input.maxLength} characters`;
  }
  switch (input.kind) {
    case "url":
      return isValidUrl(String(value), { allowSchemeless: true }) ? null : INVALID_URL_MESSAGE;
    case "number":
    case "slider": {
      const number = typeof value === "number" ? value : Number(value);
      if (!Number.isFinite(number)) return `${label} must be a number`;
      const min = bound(input.min);
      const max = bound(input.max);
      if (min !== undefined && number < min) return `${label} must be at least ${min}`;
      if (max !== undefined && number > max) return `${label} must be at most ${max}`;
      return null;
    }
    case "select":
    case "radioSelect":
      if (input.options?.length && !input.options.some((option) => String(option.value) === String(value))) {
        return `Choose one of the ${label} options`;
      }
      return null;
    case "colorPicker":
      return COLOR_PATTERN.test(normalizeColor(value)) ? null : `${label} must be a colour like #1f6feb`;
    case "datePicker": {
      const date = shapeValue("datePicker", value) as string;
      return date ? checkDate(label, date, input) : `${label} must be a date`;
    }
    case "dateRangePicker": {
      const range = shapeValue("dateRangePicker", value) as DateRange | null;
      if (!range) return `${label} needs a start and an end date`;
      if (range.end < range.start) return `${label}: the end must not be before the start`;
      return checkDate(label, range.start, input) ?? checkDate(label, range.end, input);
    }
    default:
      return null;
  }
}

/** Every visible input's message, keyed by input name (empty when the step's values are valid). */
export function validateStep(inputs: StepInput[], values: StepValues, scope?: ConditionScope): Record<string, string> {
  const errors: Record<string, string> = {};
  const shown = scope ? visibleInputs(inputs, scope) : inputs;
  for (const input of shown) {
    const message = validateInput(input, values[input.name]);
    if (message) errors[input.name] = message;
  }
  return errors;
}

/**
 * The values as sent: each in its kind's shape, only the step's inputs, hidden inputs left out
 * (a hidden input is not saved, engine contract section 1).
 */
export function cleanValues(inputs: StepInput[], values: StepValues, scope?: ConditionScope): StepValues {
  const clean: StepValues = {};
  for (const input of inputs) {
    if (scope && !isVisible(input, scope)) continue;
    clean[input.name] = shapeValue(input.kind, values[input.name]);
  }
  return clean;
}

/** A saved value as one line of text for the answers of a completed step. */
export function displayValue(kind: string, value: unknown): string {
  const shaped = shapeValue(kind, value);
  if (shaped === null || shaped === "") return "";
  if (Array.isArray(shaped)) return shaped.join(", ");
  if (kind === "dateRangePicker") return `${(shaped as DateRange).start} → ${(shaped as DateRange).end}`;
  if (kind === "thirdPartyObjectPicker") return (shaped as ThirdPartyObject).title || (shaped as ThirdPartyObject).id;
  if (kind === "contextSelector") return `${(shaped as ContextValue).profileType} profile`;
  return String(shaped);
}
