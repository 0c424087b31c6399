import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { ConnectError } from "@connectrpc/connect";
import { appError, type Logger } from "@crafter/kit";
import { APICallError, RetryError, streamText } from "ai";
import type { GenerationRun, TextEngine } from "./text-engine";

export interface AiSdkEngineOptions {
  /** An OpenAI-compatible endpoint, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1. */
  baseURL: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
  logger: Logger;
}

/**
 * Maps a provider failure to the spec's catalogue: a 429 is RATE_LIMITED (the provider asks us to
 * slow down), everything else — 5xx, timeouts, refused connections, malformed answers, bad keys —
 * is InternalServerError. Details go to the log, never to the user.
 */
export function mapProviderError(error: unknown, logger?: Logger): ConnectError {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  const status = APICallError.isInstance(cause) ? cause.statusCode : undefined;
  logger?.error({ err: cause, status }, "AI provider call failed");
  if (status === 429) {
    return appError("RATE_LIMITED", "The AI provider is busy right now. Please wait a moment and try again.");
  }
  return appError("InternalServerError");
}

/**
 * Generation through the Vercel AI SDK against any OpenAI-compatible provider (OpenAI, Ollama,
 * vLLM, …). Reads `fullStream`, which carries errors as parts (`textStream` would drop them), and
 * records the token usage of the finished call.
 */
export function createAiSdkEngine(options: AiSdkEngineOptions): TextEngine {
  const provider = createOpenAICompatible({
    name: "crafter-ai",
    baseURL: options.baseURL,
    apiKey: options.apiKey,
    includeUsage: true,
  });
  const model = provider.chatModel(options.model);

  return {
    name: options.model,
    describe: () => ({ engine: options.model, framework: "" }),
    stream(request, signal): GenerationRun {
      const usage = { inputTokens: 0, outputTokens: 0 };
      return {
        usage,
        async *[Symbol.asyncIterator]() {
          const result = streamText({
            model,
            system: request.system,
            prompt: request.prompt,
            maxOutputTokens: request.maxOutputTokens,
            temperature: request.temperature,
            abortSignal: signal,
            maxRetries: options.maxRetries,
            timeout: options.timeoutMs,
            // Errors arrive as stream parts below; the default handler would print them.
            onError: () => undefined,
          });
          try {
            for await (const part of result.fullStream) {
              if (part.type === "text-delta") {
                if (part.text) yield part.text;
              } else if (part.type === "error") {
                throw part.error;
              } else if (part.type === "abort") {
                throw signal.aborted ? signal.reason : new Error("the AI provider call timed out");
              } else if (part.type === "finish") {
                usage.inputTokens = part.totalUsage.inputTokens ?? 0;
                usage.outputTokens = part.totalUsage.outputTokens ?? 0;
              }
            }
          } catch (error) {
            if (signal.aborted) throw signal.reason;
            throw mapProviderError(error, options.logger);
          }
        },
      };
    },
  };
}
