import { ERROR_CATALOGUE, type ErrorCode } from "./codes";

/**
 * A failure in the spec's terms, free of any transport: use cases and domain code throw it, the
 * kit's `errorInterceptor` (rpc/errors.ts) turns it into a ConnectError with an `ErrorDetail`, and
 * the gateway's envelope reads it through `describeError`.
 */
export class AppError extends Error {
  override readonly name = "AppError";
  /** The catalogue code (spec section 8 or docs/api.md). */
  readonly code: ErrorCode;
  /** The HTTP status the catalogue gives `code`. */
  readonly status: number;
  /** Field name → message, for validation errors. */
  readonly fields: Record<string, string> | undefined;
  /**
   * HTTP response headers the answer must carry, lower-case names among ERROR_HEADER_NAMES
   * (e.g. `retry-after` and the RateLimit headers of a RATE_LIMITED). `toConnectError` puts them in
   * the ConnectError's metadata, `describeError` reads them back, and the gateway sends them.
   */
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message?: string, fields?: Record<string, string>, headers?: Record<string, string>) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
    this.fields = fields;
    this.headers = headers;
  }
}

/**
 * The response headers an error may carry from a service to the gateway's HTTP answer: `Retry-After`
 * and the IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers). Others are not forwarded.
 */
export const ERROR_HEADER_NAMES = ["retry-after", "ratelimit-policy", "ratelimit"] as const;

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/**
 * The error of one of the spec's codes.
 * @param message defaults to the catalogue's message for `code`.
 * @param fields field name → message, for validation errors.
 */
export function appError(code: ErrorCode, message?: string, fields?: Record<string, string>): AppError {
  return new AppError(code, message, fields);
}

/** Shorthand for a validation failure: CR_ERR_BAD_REQUEST (or `code`) with per-field messages; the first is the message. */
export function badRequest(fields: Record<string, string>, code: ErrorCode = "CR_ERR_BAD_REQUEST"): AppError {
  const first = Object.values(fields)[0];
  return appError(code, first ?? ERROR_CATALOGUE[code].message, fields);
}

/**
 * The caller went away or the deadline passed, so the work stopped and nothing was saved. Not a
 * catalogue code (no user reads it): `errorInterceptor` sends it as Connect's Canceled.
 */
export class CancelledError extends Error {
  override readonly name = "CancelledError";

  constructor(message = "The request was cancelled.") {
    super(message);
  }
}
