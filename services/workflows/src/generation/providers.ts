import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { type Logger, outboundAgent } from "@crafter/kit";
import { type LanguageModel, streamText } from "ai";
import { fetch as undiciFetch } from "undici";
import type { AiSettings, ModelSpec } from "../config";
import type { GenerationRequest } from "../domain/prompt";
import { createAiSdkEngine } from "./ai-sdk-engine";
import { ProviderTimeoutError } from "./errors";
import { createOfflineEngine } from "./offline-engine";
import type { GenerationRun, TextEngine } from "./text-engine";

/**
 * The AI SDK model of a spec. OpenAI goes through its chat-completions API (the one every
 * OpenAI-compatible server speaks too, so one local test server covers both).
 */
export function languageModel(
  spec: Exclude<ModelSpec, { provider: "offline" }>,
  fetch?: typeof globalThis.fetch,
): LanguageModel {
  switch (spec.provider) {
    case "openai":
      return createOpenAI({ apiKey: spec.apiKey, baseURL: spec.baseURL, fetch }).chat(spec.model);
    case "google":
      return createGoogleGenerativeAI({ apiKey: spec.apiKey, baseURL: spec.baseURL, fetch })(spec.model);
    case "openai-compatible":
      return createOpenAICompatible({
        name: "crafter-ai",
        baseURL: spec.baseURL ?? "",
        apiKey: spec.apiKey,
        includeUsage: true,
        fetch,
      }).chatModel(spec.model);
  }
}

/**
 * The fetch of a provider whose address a user typed (AI settings): like the website audit, it
 * only connects to public addresses, except hosts the operator pins (AI_SETTINGS_RESOLVE, e.g. a
 * local Ollama), so a user's "base URL" cannot reach the cluster's own services.
 */
export function userUrlFetch(pins: Readonly<Record<string, string>>, timeoutMs: number): typeof globalThis.fetch {
  const agent = outboundAgent(pins, timeoutMs);
  return ((input: Parameters<typeof undiciFetch>[0], init?: Parameters<typeof undiciFetch>[1]) =>
    undiciFetch(input, { ...init, dispatcher: agent })) as unknown as typeof globalThis.fetch;
}

/**
 * One small real call (a few tokens) to check a provider, its key and model.
 * @returns the time it took, in ms. @throws the SDK's error (see describeProviderFailure).
 */
export async function probeModel(model: LanguageModel, timeoutMs: number, signal: AbortSignal): Promise<number> {
  const started = performance.now();
  const deadline = AbortSignal.timeout(timeoutMs);
  const result = streamText({
    model,
    prompt: "Reply with the single word OK.",
    maxOutputTokens: 16,
    maxRetries: 0,
    abortSignal: AbortSignal.any([signal, deadline]),
    onError: () => undefined,
  });
  try {
    for await (const part of result.fullStream) {
      if (part.type === "error") throw part.error;
      if (part.type === "abort") throw new ProviderTimeoutError("the AI provider did not answer in time");
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (deadline.aborted) throw new ProviderTimeoutError("the AI provider did not answer in time", { cause: error });
    throw error;
  }
  return Math.round(performance.now() - started);
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
  options: { offlineDelayMs: number; logger: Logger; fetch?: typeof globalThis.fetch },
): TextEngine {
  const offline = createOfflineEngine({ delayMs: options.offlineDelayMs });
  const build = (spec: ModelSpec): TextEngine =>
    spec.provider === "offline"
      ? offline
      : createAiSdkEngine({
          model: languageModel(spec, options.fetch),
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
    stream: (request, signal, options): GenerationRun => pick(request).stream(request, signal, options),
  };
}

/** @throws Error naming the AI_WORKFLOW_MODELS entries that are no workflow of the registry. */
export function checkWorkflowModels(settings: AiSettings, known: (name: string) => boolean): void {
  const unknown = Object.keys(settings.workflows).filter((name) => !known(name));
  if (unknown.length > 0) throw new Error(`AI_WORKFLOW_MODELS names unknown workflows: ${unknown.join(", ")}`);
}
