/**
 * Live show/hide of inputs (`input.showWhen`, docs/engine-contract.md section 1).
 *
 * The engine's evaluator (services/workflows/src/domain/conditions.ts, pure, no imports) is the one
 * source of truth; it is being written on branch `engine`. Until it lands this is a small local
 * stand-in with the same call shape `evaluateCondition(condition, scope)`: once the engine's file
 * exists, replace the body below with
 * `export { evaluateCondition } from "../../../../services/workflows/src/domain/conditions";`.
 *
 * A condition: `{ ref, op, value? }` | `{ all: [...] }` | `{ any: [...] }` | `{ not: cond }`.
 * `ref` is a dotted path into the scope: `values.<input>`, `steps.<step>.values.<input>`,
 * `steps.<step>.result.<section>`, `profile.<field>`.
 */
export interface ConditionScope {
  values: Record<string, unknown>;
  steps?: Record<string, { values?: Record<string, unknown>; result?: Record<string, unknown> }>;
  profile?: Record<string, unknown> | null;
}

function lookup(scope: ConditionScope, ref: string): unknown {
  let at: unknown = scope;
  for (const part of ref.split(".")) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

function hasValue(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (Array.isArray(value)) return value.some(hasValue);
  return true;
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === "number" || typeof b === "number") return Number(a) === Number(b);
  return String(a ?? "") === String(b ?? "");
}

function contains(haystack: unknown, needle: unknown): boolean {
  if (Array.isArray(haystack)) return haystack.some((item) => same(item, needle));
  if (typeof haystack === "string") return haystack.toLowerCase().includes(String(needle ?? "").toLowerCase());
  return false;
}

function compare(actual: unknown, op: string, expected: unknown): boolean {
  switch (op) {
    case "==":
      return same(actual, expected);
    case "!=":
      return !same(actual, expected);
    case ">":
      return Number(actual) > Number(expected);
    case "<":
      return Number(actual) < Number(expected);
    case ">=":
      return Number(actual) >= Number(expected);
    case "<=":
      return Number(actual) <= Number(expected);
    case "hasValue":
      return hasValue(actual);
    case "in":
      return Array.isArray(expected) && expected.some((item) => same(item, actual));
    case "not in":
      return !(Array.isArray(expected) && expected.some((item) => same(item, actual)));
    case "contains":
      return contains(actual, expected);
    case "notContains":
      return !contains(actual, expected);
    default:
      // An unknown operator hides nothing: the server decides (it validates definitions).
      return true;
  }
}

/** True when the condition holds for the scope; a missing condition holds. */
export function evaluateCondition(condition: unknown, scope: ConditionScope): boolean {
  if (condition === null || condition === undefined) return true;
  if (typeof condition !== "object") return true;
  const node = condition as Record<string, unknown>;
  if (Array.isArray(node.all)) return node.all.every((child) => evaluateCondition(child, scope));
  if (Array.isArray(node.any)) return node.any.some((child) => evaluateCondition(child, scope));
  if ("not" in node) return !evaluateCondition(node.not, scope);
  if (typeof node.ref === "string" && typeof node.op === "string") {
    return compare(lookup(scope, node.ref), node.op, node.value);
  }
  return true;
}
