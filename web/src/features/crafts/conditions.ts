/**
 * Live show/hide of inputs (`input.showWhen`, docs/engine-contract.md section 1) with the
 * workflow language's own evaluator and references, so the browser decides exactly as the server
 * does.
 */
import {
  type Condition,
  evaluateCondition as evaluateWithResolver,
  type JsonValue,
  type ReferenceScope,
  resolveReference,
} from "@crafter/workflow-language";

/** What a step's conditions may read: its live values, the craft's other steps, the profile. */
export type ConditionScope = ReferenceScope;

/** The scope of a step's live values, the craft's steps (latest result last) and the profile. */
export function referenceScope(
  values: Record<string, unknown>,
  steps: {
    name: string;
    values?: Record<string, unknown>;
    results?: { content: unknown; sections?: Record<string, string[]> }[];
  }[] = [],
  profile?: Record<string, unknown> | null,
): ConditionScope {
  return {
    values: values as Record<string, JsonValue>,
    steps: steps.map((step) => {
      const last = step.results?.at(-1);
      return {
        name: step.name,
        values: (step.values ?? {}) as Record<string, JsonValue>,
        results: last
          ? [{ content: typeof last.content === "string" ? last.content : "", sections: last.sections ?? {} }]
          : [],
      };
    }),
    profile: (profile ?? null) as ConditionScope["profile"],
  };
}

/** True when the condition holds for the scope; a missing or malformed condition holds. */
export function evaluateCondition(condition: unknown, scope: ConditionScope): boolean {
  if (condition === null || typeof condition !== "object") return true;
  return evaluateWithResolver(condition as Condition, (ref) => resolveReference(ref, scope));
}
