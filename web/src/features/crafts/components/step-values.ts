import { INVALID_URL_MESSAGE, isEmptyValue, isValidUrl } from "@crafter/kit/validation";
import type { CraftStep, StepInput } from "../../../api/types";
import { humanize } from "../../../shared/format";

/**
 * Pure rules of a FormStep's inputs (no React): defaults, validation and the values sent to the
 * server. The components that render each kind live in inputs.tsx.
 */
export type StepValues = Record<string, unknown>;

const LIST_KINDS = new Set(["chipText", "bulletPoint", "dateRangePicker"]);

export function labelOf(input: StepInput): string {
  return input.label?.trim() || humanize(input.name);
}

/** The empty value of a kind: [] for lists, null for numbers, "" otherwise. */
export function emptyValueFor(kind: string): unknown {
  if (LIST_KINDS.has(kind)) return [];
  if (kind === "number" || kind === "slider") return null;
  return "";
}

/** Saved values first, then the definition's default, then the kind's empty value. */
export function initialValues(step: CraftStep): StepValues {
  const values: StepValues = {};
  for (const input of step.inputs ?? []) {
    const saved = step.values?.[input.name];
    const value = saved !== undefined && saved !== null ? saved : (input.defaultValue ?? emptyValueFor(input.kind));
    values[input.name] = LIST_KINDS.has(input.kind) && !Array.isArray(value) ? (value ? [String(value)] : []) : value;
  }
  return values;
}

function isBlank(value: unknown): boolean {
  if (Array.isArray(value)) return value.every((item) => isEmptyValue(item));
  return isEmptyValue(value);
}

/** The message for one input's value, or null when it is valid. */
export function validateInput(input: StepInput, value: unknown): string | null {
  const label = labelOf(input);
  if (isBlank(value)) return input.required ? `${label} is required` : null;
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
      if (input.min !== undefined && number < input.min) return `${label} must be at least ${input.min}`;
      if (input.max !== undefined && number > input.max) return `${label} must be at most ${input.max}`;
      return null;
    }
    case "select":
    case "radioSelect":
      if (input.options?.length && !input.options.some((option) => String(option.value) === String(value))) {
        return `Choose one of the ${label} options`;
      }
      return null;
    default:
      return null;
  }
}

/** Every input's message, keyed by input name (empty when the step's values are valid). */
export function validateStep(inputs: StepInput[], values: StepValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const input of inputs) {
    const message = validateInput(input, values[input.name]);
    if (message) errors[input.name] = message;
  }
  return errors;
}

/** The values as sent: strings trimmed, blank list items dropped, only the step's inputs. */
export function cleanValues(inputs: StepInput[], values: StepValues): StepValues {
  const clean: StepValues = {};
  for (const input of inputs) {
    const value = values[input.name];
    if (Array.isArray(value)) {
      clean[input.name] = value
        .map((item) => (typeof item === "string" ? item.trim() : item))
        .filter((item) => !isEmptyValue(item));
    } else if (typeof value === "string") {
      clean[input.name] = value.trim();
    } else if (value === undefined) {
      clean[input.name] = null;
    } else {
      clean[input.name] = value;
    }
  }
  return clean;
}
