import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { Logger } from "@crafter/kit";
import type { LanguageModel } from "ai";
import type { AiSettings, ModelSpec } from "../config";
import type { GenerationRequest } from "../domain/prompt";
import { createAiSdkEngine } from "./ai-sdk-engine";
import { createOfflineEngine } from "./offline-engine";
import type { GenerationRun, TextEngine } from "./text-engine";

/**
 * The AI SDK model of a spec. OpenAI goes through its chat-completions API (the one every
 * OpenAI-compatible server speaks too, so one local test server covers both).
 */
export function languageModel(spec: Exclude<ModelSpec, { provider: "offline" }>): LanguageModel {
  switch (spec.provider) {
    case "openai":
      return createOpenAI({ apiKey: spec.apiKey, baseURL: spec.baseURL }).chat(spec.model);
    case "google":
      return createGoogleGenerativeAI({ apiKey: spec.apiKey, baseURL: spec.baseURL })(spec.model);
    case "openai-compatible":
      return createOpenAICompatible({
        name: "crafter-ai",
        baseURL: spec.baseURL ?? "",
        apiKey: spec.apiKey,
        includeUsage: true,
      }).chatModel(spec.model);
  }
}

/** "offline" or "<provider>:<model>", for logs. */
export function specLabel(spec: ModelSpec): string {
  return spec.provider === "offline" ? "offline" : `${spec.provider}:${spec.model}`;
}

/**
 * The text engine of the service: AI_PROVIDER's engine for every workflow, except those
 * AI_WORKFLOW_MODELS sends elsewhere (chosen by the request's workflow name).
 */
export function createTextEngine(
  settings: AiSettings,
  options: { offlineDelayMs: number; logger: Logger },
): TextEngine {
  const offline = createOfflineEngine({ delayMs: options.offlineDelayMs });
  const build = (spec: ModelSpec): TextEngine =>
    spec.provider === "offline"
      ? offline
      : createAiSdkEngine({
          model: languageModel(spec),
          modelId: spec.model,
          timeoutMs: settings.timeoutMs,
          maxRetries: settings.maxRetries,
          logger: options.logger,
        });
  const fallback = build(settings.default);
  const byWorkflow = new Map(Object.entries(settings.workflows).map(([name, spec]) => [name, build(spec)]));
  if (byWorkflow.size === 0) return fallback;
  const pick = (request: GenerationRequest) => byWorkflow.get(request.workflowName) ?? fallback;
  return {
    name: fallback.name,
    isOffline: (workflowName) => (byWorkflow.get(workflowName) ?? fallback).isOffline(workflowName),
    describe: (request) => pick(request).describe(request),
    stream: (request, signal): GenerationRun => pick(request).stream(request, signal),
  };
}

/** @throws Error naming the AI_WORKFLOW_MODELS entries that are no workflow of the registry. */
export function checkWorkflowModels(settings: AiSettings, known: (name: string) => boolean): void {
  const unknown = Object.keys(settings.workflows).filter((name) => !known(name));
  if (unknown.length > 0) throw new Error(`AI_WORKFLOW_MODELS names unknown workflows: ${unknown.join(", ")}`);
}
