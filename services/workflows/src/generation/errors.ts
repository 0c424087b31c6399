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
  unreachable: "The AI service cannot be reached right now. Please try again in a moment.",
  emptyOutput: "The AI could not write a usable draft from these inputs. Please review or add details and try again.",
} as const;

/**
 * Maps a provider failure to the spec's catalogue, after the SDK's retries:
 * - 429 → RATE_LIMITED (HTTP 429): retryable, the user waits and tries again;
 * - timeout → UNAVAILABLE (503) with a timeout message;
 * - 5xx, or no answer at all (refused connection, DNS, reset) → UNAVAILABLE (503): try again later;
 * - anything else (a 4xx such as a bad key or unknown model, a stream that is not the protocol) →
 *   AI_PROVIDER_ERROR (502): the provider's settings need a look.
 * Provider details go to the log, never to the user.
 */
export function mapProviderError(error: unknown, logger?: Logger): AppError {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  const status = APICallError.isInstance(cause) ? cause.statusCode : undefined;
  const attempts = RetryError.isInstance(error) ? error.errors.length : 1;
  logger?.error({ err: cause, status, attempts }, "AI provider call failed");
  if (status === 429) return appError("RATE_LIMITED", PROVIDER_MESSAGES.rateLimited);
  if (cause instanceof ProviderTimeoutError) return appError("UNAVAILABLE", PROVIDER_MESSAGES.timeout);
  if ((status !== undefined && status >= 500) || (status === undefined && isNetworkFailure(cause))) {
    return appError("UNAVAILABLE", PROVIDER_MESSAGES.unreachable);
  }
  return appError("AI_PROVIDER_ERROR");
}

/** A failure to reach the provider at all (no HTTP answer): connection refused, DNS, reset. */
function isNetworkFailure(error: unknown): boolean {
  for (let at: unknown = error, depth = 0; at && depth < 5; depth++) {
    const code = (at as { code?: unknown }).code;
    if (
      typeof code === "string" &&
      /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|UND_ERR_)/.test(code)
    ) {
      return true;
    }
    if (at instanceof TypeError && /fetch failed/i.test(at.message)) return true;
    at = (at as { cause?: unknown }).cause;
  }
  return APICallError.isInstance(error) && error.isRetryable && error.statusCode === undefined;
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
