import type { FunctionRegistry } from "./types";

/**
 * The functions of FunctionCaller actions, by name (definition `action.function`). main.ts hands
 * this registry to the engine; register each implementation here (websiteAudit, keywordResearch,
 * competitorResearch live beside this file).
 */
export function buildFunctions(): FunctionRegistry {
  return {};
}

export type { FunctionAnswer, FunctionContext, FunctionRegistry, WorkflowFunction } from "./types";
