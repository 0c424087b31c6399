/**
 * Live show/hide of inputs (`input.showWhen`, docs/engine-contract.md section 1) with the
 * engine's own evaluator (services/workflows/src/domain/conditions.ts has no imports so the
 * browser decides exactly as the server does). This file only resolves references against what
 * the page holds.
 */
import {
  type Condition,
  evaluateCondition as evaluateWithResolver,
} from "../../../../services/workflows/src/domain/conditions";

/** What a step's conditions may read: its live values, the craft's other steps, the profile. */
export interface ConditionScope {
  values: Record<string, unknown>;
  /** Per step: its saved values and its latest result (`sections` by key, `content`). */
  steps?: Record<string, { values?: Record<string, unknown>; result?: Record<string, unknown> }>;
  profile?: Record<string, unknown> | null;
}

const RESULT_REF = /^steps\.(\w+)\.result\.(\w+)(\[0\])?$/;

/**
 * The value of a reference (the syntax of services/workflows/src/domain/references.ts):
 * `values.<input>`, `steps.<step>.values.<input>`, `steps.<step>.result.<section>` (or its
 * `[0]`, or `.content`), `profile.<field>`; undefined when unknown.
 */
export function resolveReference(ref: string, scope: ConditionScope): unknown {
  const trimmed = ref.trim();
  const result = trimmed.match(RESULT_REF);
  if (result) {
    const value = scope.steps?.[result[1]!]?.result?.[result[2]!];
    return result[3] ? (Array.isArray(value) ? value[0] : undefined) : value;
  }
  let at: unknown = scope;
  for (const part of trimmed.split(".")) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/** True when the condition holds for the scope; a missing or malformed condition holds. */
export function evaluateCondition(condition: unknown, scope: ConditionScope): boolean {
  if (condition === null || typeof condition !== "object") return true;
  return evaluateWithResolver(condition as Condition, (ref) => resolveReference(ref, scope));
}
