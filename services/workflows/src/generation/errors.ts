import { type AppError, appError, type Logger } from "@crafter/kit";
import { APICallError, RetryError } from "ai";

/** The provider did not finish within AI_TIMEOUT_MS (retries included). */
export class ProviderTimeoutError extends Error {
  override name = "ProviderTimeoutError";
}

/** What the user reads for each provider failure (README "AI providers" and docs/api.md). */
export const PROVIDER_MESSAGES = {
  rateLimited: "The AI service is busy right now. Please wait a moment and try again.",
  timeout: "The AI service took too long to answer. Please try again.",
  emptyOutput: "The AI could not write a usable draft from these inputs. Please review or add details and try again.",
} as const;

/**
 * Maps a provider failure to the spec's catalogue, after the SDK's retries:
 * - 429 → RATE_LIMITED (HTTP 429): retryable, the user waits and tries again;
 * - timeout → InternalServerError with a timeout message;
 * - anything else (5xx, refused connection, bad key, a stream that is not the protocol) →
 *   InternalServerError with the catalogue's message.
 * Provider details go to the log, never to the user.
 */
export function mapProviderError(error: unknown, logger?: Logger): AppError {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  const status = APICallError.isInstance(cause) ? cause.statusCode : undefined;
  const attempts = RetryError.isInstance(error) ? error.errors.length : 1;
  logger?.error({ err: cause, status, attempts }, "AI provider call failed");
  if (status === 429) return appError("RATE_LIMITED", PROVIDER_MESSAGES.rateLimited);
  if (cause instanceof ProviderTimeoutError) return appError("InternalServerError", PROVIDER_MESSAGES.timeout);
  return appError("InternalServerError");
}

/**
 * A generation whose text has not the shape its step asks for (empty, a list without items).
 * From a model that is about the inputs (too thin, contradictory, refused): ConflictingInputError,
 * so the user reviews them; from the offline engine it is our bug: InternalServerError.
 */
export function malformedOutputError(engine: string): AppError {
  return engine === "offline"
    ? appError("InternalServerError")
    : appError("ConflictingInputError", PROVIDER_MESSAGES.emptyOutput);
}
