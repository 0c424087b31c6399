import type { Config } from "../config";
import { competitorResearch, dataForSeoProvider, keywordResearch, type ResearchProvider } from "./research-provider";
import type { FunctionRegistry } from "./types";
import { websiteAudit } from "./website-audit";

/** The research provider when one is configured, else undefined (research then finds no data). */
export function researchProvider(config: Config): ResearchProvider | undefined {
  if (!config.RESEARCH_PROVIDER_URL || !config.RESEARCH_PROVIDER_LOGIN || !config.RESEARCH_PROVIDER_PASSWORD)
    return undefined;
  return dataForSeoProvider({
    baseUrl: config.RESEARCH_PROVIDER_URL,
    login: config.RESEARCH_PROVIDER_LOGIN,
    password: config.RESEARCH_PROVIDER_PASSWORD,
    location: config.RESEARCH_LOCATION,
    language: config.RESEARCH_LANGUAGE,
    timeoutMs: config.RESEARCH_TIMEOUT_MS,
  });
}

/**
 * The functions of FunctionCaller actions, by name (definition `action.function`). main.ts hands
 * this registry to the engine.
 */
export function buildFunctions(
  config: Pick<
    Config,
    | "WEBSITE_AUDIT_TIMEOUT_MS"
    | "WEBSITE_AUDIT_MAX_BYTES"
    | "WEBSITE_AUDIT_RESOLVE"
    | "RESEARCH_PROVIDER_URL"
    | "RESEARCH_PROVIDER_LOGIN"
    | "RESEARCH_PROVIDER_PASSWORD"
    | "RESEARCH_LOCATION"
    | "RESEARCH_LANGUAGE"
    | "RESEARCH_TIMEOUT_MS"
  >,
): FunctionRegistry {
  const provider = researchProvider(config as Config);
  return {
    websiteAudit: websiteAudit({
      timeoutMs: config.WEBSITE_AUDIT_TIMEOUT_MS,
      maxBytes: config.WEBSITE_AUDIT_MAX_BYTES,
      resolve: config.WEBSITE_AUDIT_RESOLVE,
    }),
    keywordResearch: keywordResearch(provider),
    competitorResearch: competitorResearch(provider),
  };
}

export type { FunctionAnswer, FunctionContext, FunctionRegistry, WorkflowFunction } from "./types";
