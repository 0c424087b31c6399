import type { Logger } from "@crafter/kit";
import type { Config } from "../config";
import type { FunctionRegistry } from "./types";

/**
 * The functions of FunctionCaller actions, by name (definition `action.function`). main.ts hands
 * this registry to the engine; register each implementation here (websiteAudit, keywordResearch,
 * competitorResearch live beside this file). `config` and `logger` are the service's, for the
 * functions' own settings (provider URLs, keys, timeouts) and logs.
 */
export function buildFunctions(_deps: { config: Config; logger: Logger }): FunctionRegistry {
  return {};
}

export type { FunctionAnswer, FunctionContext, FunctionRegistry, WorkflowFunction } from "./types";
