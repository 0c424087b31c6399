/**
 * Conditions of workflow definitions (`input.showWhen`, `step.skipWhen`) and their evaluator.
 *
 * The engine and the web (which shows and hides inputs live) both evaluate with this file, so the
 * server and the browser decide the same way.
 *
 * A condition compares the value at `ref` (a reference such as `values.channel` or
 * `steps.topic.result.titles`, resolved by the caller) with `value`:
 *   { "ref": "values.channel", "op": "==", "value": "instagram" }
 * and combines with { "all": [..] }, { "any": [..] }, { "not": cond }.
 */

export const CONDITION_OPS = [
  "==",
  "!=",
  ">",
  "<",
  ">=",
  "<=",
  "hasValue",
  "in",
  "not in",
  "contains",
  "notContains",
] as const;

export type ConditionOp = (typeof CONDITION_OPS)[number];

/** A JSON-shaped value (what a reference resolves to). */
export type ConditionValue = string | number | boolean | null | ConditionValue[] | { [key: string]: ConditionValue };

export interface Comparison {
  ref: string;
  op: ConditionOp;
  /** Absent for `hasValue`; an array for `in` / `not in`. */
  value?: ConditionValue;
}

export type Condition = Comparison | { all: Condition[] } | { any: Condition[] } | { not: Condition };

/** Resolves a reference to its current value; undefined when there is nothing there. */
export type ConditionResolver = (ref: string) => unknown;

/** Every reference a condition reads, in order (for definition checks). */
export function conditionRefs(condition: Condition): string[] {
  if ("all" in condition) return condition.all.flatMap(conditionRefs);
  if ("any" in condition) return condition.any.flatMap(conditionRefs);
  if ("not" in condition) return conditionRefs(condition.not);
  return [condition.ref];
}

/**
 * Evaluates a condition.
 * - Empty means undefined, null, "" (after trimming), [] or {}; `hasValue` is its negation.
 * - Equality is loose across numbers and numeric strings (`3 == "3"`), case-insensitive for text,
 *   and element-wise for arrays; an array value equals a scalar when it is that single item.
 * - Ordering (> < >= <=) compares numbers when both sides are numeric, else text; so ISO dates
 *   `YYYY-MM-DD` order correctly as strings. An empty side makes every ordering false.
 * - `in` / `not in`: the value (or, for an array, any of its items) is one of the given list.
 * - `contains` / `notContains`: substring for text (case-insensitive), member for arrays.
 * `all: []` is true, `any: []` is false.
 */
export function evaluateCondition(condition: Condition, resolve: ConditionResolver): boolean {
  if ("all" in condition) return condition.all.every((part) => evaluateCondition(part, resolve));
  if ("any" in condition) return condition.any.some((part) => evaluateCondition(part, resolve));
  if ("not" in condition) return !evaluateCondition(condition.not, resolve);
  return compare(resolve(condition.ref), condition.op, condition.value);
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

function asNumber(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && value.trim() !== "") {
    const number = Number(value.trim());
    return Number.isFinite(number) ? number : null;
  }
  return null;
}

function normalText(value: unknown): string {
  return String(value).trim().toLowerCase();
}

function scalarEquals(a: unknown, b: unknown): boolean {
  if (isEmpty(a) || isEmpty(b)) return isEmpty(a) && isEmpty(b);
  if (typeof a === "boolean" || typeof b === "boolean") {
    return normalText(a) === normalText(b);
  }
  const x = asNumber(a);
  const y = asNumber(b);
  if (x !== null && y !== null) return x === y;
  if (typeof a === "object" || typeof b === "object") return JSON.stringify(a) === JSON.stringify(b);
  return normalText(a) === normalText(b);
}

function equals(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => scalarEquals(item, b[i]));
  }
  if (Array.isArray(a) && a.length === 1) return scalarEquals(a[0], b);
  if (Array.isArray(b) && b.length === 1) return scalarEquals(a, b[0]);
  if (Array.isArray(a) || Array.isArray(b)) return isEmpty(a) && isEmpty(b);
  return scalarEquals(a, b);
}

function order(a: unknown, b: unknown): number | null {
  const left = Array.isArray(a) && a.length === 1 ? a[0] : a;
  if (isEmpty(left) || isEmpty(b) || Array.isArray(left) || typeof left === "object") return null;
  const x = asNumber(left);
  const y = asNumber(b);
  if (x !== null && y !== null) return x - y;
  const s = normalText(left);
  const t = normalText(b);
  return s < t ? -1 : s > t ? 1 : 0;
}

function contains(haystack: unknown, needle: unknown): boolean {
  if (Array.isArray(haystack)) return haystack.some((item) => equals(item, needle));
  if (isEmpty(haystack) || isEmpty(needle)) return false;
  if (typeof haystack === "string" || typeof haystack === "number") {
    return normalText(haystack).includes(normalText(needle));
  }
  return false;
}

function isIn(value: unknown, list: unknown): boolean {
  if (!Array.isArray(list)) return equals(value, list);
  if (Array.isArray(value)) return value.some((item) => list.some((option) => equals(item, option)));
  return list.some((option) => equals(value, option));
}

function compare(actual: unknown, op: ConditionOp, expected: unknown): boolean {
  switch (op) {
    case "hasValue":
      return !isEmpty(actual);
    case "==":
      return equals(actual, expected);
    case "!=":
      return !equals(actual, expected);
    case ">": {
      const o = order(actual, expected);
      return o !== null && o > 0;
    }
    case "<": {
      const o = order(actual, expected);
      return o !== null && o < 0;
    }
    case ">=": {
      const o = order(actual, expected);
      return o !== null && o >= 0;
    }
    case "<=": {
      const o = order(actual, expected);
      return o !== null && o <= 0;
    }
    case "in":
      return isIn(actual, expected);
    case "not in":
      return !isIn(actual, expected);
    case "contains":
      return contains(actual, expected);
    case "notContains":
      return !contains(actual, expected);
    default:
      return false;
  }
}
