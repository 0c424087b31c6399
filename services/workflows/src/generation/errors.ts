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

/**
 * A provider failure in plain words for the one who set the provider up (AI settings' "Test
 * connection"): unlike generation errors, it names the provider's own message, which is about
 * their account (never our internals). The caller redacts the key from it.
 */
export function describeProviderFailure(error: unknown): string {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  if (cause instanceof ProviderTimeoutError) return "The provider did not answer within the time limit.";
  if (APICallError.isInstance(cause)) {
    const status = cause.statusCode;
    const said = providerMessage(cause);
    const suffix = said ? ` The provider said: "${said}"` : "";
    if (status === 401 || status === 403) return `The provider refused the API key (HTTP ${status}).${suffix}`;
    if (status === 404) return `The provider does not know this model or address (HTTP 404).${suffix}`;
    if (status === 429) return `The provider is rate-limiting this key (HTTP 429).${suffix}`;
    if (status !== undefined && status >= 500) return `The provider had an error (HTTP ${status}).${suffix}`;
    if (status !== undefined) return `The provider refused the request (HTTP ${status}).${suffix}`;
  }
  for (let at: unknown = cause, depth = 0; at && depth < 5; depth++) {
    if ((at as { reason?: unknown }).reason === "blocked-address") {
      return "This address is private; the server may only call public addresses (or those its operator allows).";
    }
    at = (at as { cause?: unknown }).cause;
  }
  if (isNetworkFailure(cause)) return "The provider's address cannot be reached. Check the base URL.";
  return "The provider's answer was not understood. Check the provider type and the base URL.";
}

/** The provider's own error message from its JSON answer, shortened. */
function providerMessage(error: APICallError): string {
  let text = "";
  try {
    const body = JSON.parse(error.responseBody ?? "") as { error?: { message?: unknown } | string; message?: unknown };
    const inner = typeof body.error === "string" ? body.error : body.error?.message;
    text = typeof inner === "string" ? inner : typeof body.message === "string" ? body.message : "";
  } catch {
    text = "";
  }
  text = text || error.message || "";
  return text.length > 300 ? `${text.slice(0, 297)}…` : text;
}
