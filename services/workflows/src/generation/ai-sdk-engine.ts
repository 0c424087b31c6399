import type { Logger } from "@crafter/kit";
import { type LanguageModel, streamText } from "ai";
import { mapProviderError, ProviderTimeoutError } from "./errors";
import type { GenerationRun, TextEngine } from "./text-engine";

export { mapProviderError } from "./errors";

export interface AiSdkEngineOptions {
  /** A model of any AI SDK provider (see providers.ts). */
  model: LanguageModel;
  /** The model id, shown as the result's `engine`. */
  modelId: string;
  /**
   * The longest wait for the provider's next chunk (the first one included, and so the retries
   * before it), in ms: a stalled stream fails, a long one that keeps writing does not.
   */
  timeoutMs: number;
  /** Retries of a failed call (429, 5xx, network), with the SDK's exponential backoff. */
  maxRetries: number;
  logger: Logger;
}

/**
 * Generation through the Vercel AI SDK. Reads `fullStream`, which carries errors as parts
 * (`textStream` would drop them), and records the token usage of the finished call (summed over
 * steps). Fails with an AppError of the catalogue (errors.ts), or the caller's abort reason.
 */
export function createAiSdkEngine(options: AiSdkEngineOptions): TextEngine {
  return {
    name: options.modelId,
    describe: () => ({ engine: options.modelId, framework: "" }),
    isOffline: () => false,
    stream(request, signal): GenerationRun {
      const usage = { inputTokens: 0, outputTokens: 0 };
      return {
        usage,
        async *[Symbol.asyncIterator]() {
          // Our own deadline, so a timeout is told apart from the caller going away; every
          // chunk pushes it back.
          const deadline = new AbortController();
          const expire = () => deadline.abort(new ProviderTimeoutError("the AI provider stopped answering"));
          let timer = setTimeout(expire, options.timeoutMs);
          const progress = () => {
            clearTimeout(timer);
            timer = setTimeout(expire, options.timeoutMs);
          };
          const timedOut = () => deadline.signal.aborted && !signal.aborted;
          const result = streamText({
            model: options.model,
            instructions: request.system,
            prompt: request.prompt,
            maxOutputTokens: request.maxOutputTokens,
            temperature: request.temperature,
            abortSignal: AbortSignal.any([signal, deadline.signal]),
            maxRetries: options.maxRetries,
            // Errors arrive as stream parts below; the default handler would print them.
            onError: () => undefined,
          });
          try {
            for await (const part of result.fullStream) {
              progress();
              if (part.type === "text-delta") {
                if (part.text) yield part.text;
              } else if (part.type === "error") {
                throw part.error;
              } else if (part.type === "abort") {
                throw signal.aborted ? signal.reason : new ProviderTimeoutError("the AI provider call timed out");
              } else if (part.type === "finish") {
                usage.inputTokens = part.totalUsage.inputTokens ?? 0;
                usage.outputTokens = part.totalUsage.outputTokens ?? 0;
              }
            }
          } catch (error) {
            if (signal.aborted) throw signal.reason;
            const cause = timedOut()
              ? new ProviderTimeoutError("the AI provider call timed out", { cause: error })
              : error;
            throw mapProviderError(cause, options.logger);
          } finally {
            clearTimeout(timer);
          }
        },
      };
    },
  };
}
