import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { type ErrorDetail, ErrorDetailSchema } from "@crafter/proto/crafter/common/v1/error_pb";
import { AppError, appError, CancelledError, ERROR_HEADER_NAMES } from "../errors/app-error";
import { ERROR_CATALOGUE, type ErrorCode, isErrorCode } from "../errors/codes";

const CONNECT_CODE_BY_STATUS: Record<number, Code> = {
  400: Code.InvalidArgument,
  401: Code.Unauthenticated,
  402: Code.FailedPrecondition,
  403: Code.PermissionDenied,
  404: Code.NotFound,
  405: Code.Unimplemented,
  409: Code.Aborted,
  410: Code.NotFound,
  415: Code.InvalidArgument,
  422: Code.FailedPrecondition,
  429: Code.ResourceExhausted,
  500: Code.Internal,
  502: Code.Unavailable,
  503: Code.Unavailable,
};

/**
 * An AppError as a ConnectError carrying its code as an `ErrorDetail`, so it survives gRPC and the
 * Connect protocol alike; the Connect code follows the catalogue's HTTP status, and the error's
 * `headers` become the ConnectError's metadata. A CancelledError
 * becomes Canceled, an outage (`isOutage`) Unavailable. Any other error is returned unchanged.
 */
export function toConnectError(error: unknown): unknown {
  if (error instanceof CancelledError) return new ConnectError(error.message, Code.Canceled);
  // A database or peer that is down reaches the caller as Unavailable (503 with Retry-After), not Internal.
  if (!(error instanceof AppError) && !(error instanceof ConnectError) && isOutage(error)) {
    return new ConnectError("A server this call needs is unavailable.", Code.Unavailable, undefined, undefined, error);
  }
  if (!(error instanceof AppError)) return error;
  const connectCode = CONNECT_CODE_BY_STATUS[error.status] ?? Code.Unknown;
  // The error's response headers (Retry-After, RateLimit) travel as the ConnectError's metadata.
  return new ConnectError(error.message, connectCode, error.headers ? new Headers(error.headers) : undefined, [
    { desc: ErrorDetailSchema, value: { code: error.code, fields: error.fields ?? {} } },
  ]);
}

async function* connectErrors<T>(messages: AsyncIterable<T>): AsyncIterable<T> {
  try {
    yield* messages;
  } catch (error) {
    throw toConnectError(error);
  }
}

/**
 * Server interceptor, innermost: an AppError thrown by a handler (unary, or while streaming)
 * leaves the service as a ConnectError with its `ErrorDetail` (`toConnectError`).
 */
export function errorInterceptor(): Interceptor {
  return (next) => async (req) => {
    try {
      const res = await next(req);
      return res.stream ? { ...res, message: connectErrors(res.message) } : res;
    } catch (error) {
      throw toConnectError(error);
    }
  };
}

const CODE_BY_CONNECT: Partial<Record<Code, ErrorCode>> = {
  [Code.InvalidArgument]: "CR_ERR_BAD_REQUEST",
  [Code.Unauthenticated]: "UNAUTHENTICATED",
  [Code.PermissionDenied]: "FORBIDDEN",
  [Code.NotFound]: "NOT_FOUND",
  [Code.AlreadyExists]: "CONFLICT",
  [Code.Aborted]: "CONFLICT",
  [Code.FailedPrecondition]: "CONFLICT",
  [Code.ResourceExhausted]: "RATE_LIMITED",
  [Code.Unavailable]: "UNAVAILABLE",
  [Code.DeadlineExceeded]: "UNAVAILABLE",
};

const OUTAGE_NAMES = new Set([
  "MongoServerSelectionError",
  "MongooseServerSelectionError",
  "MongoNetworkError",
  "MongoNetworkTimeoutError",
  "MongoNotConnectedError",
  "MongoTopologyClosedError",
  "MongoPoolClearedError",
  "MaxRetriesPerRequestError",
]);
const OUTAGE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"]);

/**
 * True when `error` says a server we depend on is down or unreachable (the database, Redis, a
 * socket refused or reset, mongoose's buffering timeout), not that the request or our code is wrong.
 * Such failures answer 503 with Retry-After (UNAVAILABLE), never 500.
 */
export function isOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof ConnectError) return error.code === Code.Unavailable || error.code === Code.DeadlineExceeded;
  const code = (error as { code?: unknown }).code;
  if (OUTAGE_NAMES.has(error.name) || (typeof code === "string" && OUTAGE_CODES.has(code))) return true;
  if (error.name === "MongooseError" && /buffering timed out|before initial connection/i.test(error.message))
    return true;
  return error.cause !== undefined && error.cause !== error && isOutage(error.cause);
}

/**
 * The failure of a token check, thrown as the caller should see it: an outage (the denylist's Redis
 * or the JWKS source down, `isOutage`) as itself, since it says nothing of the token (503 /
 * Unavailable, so a client keeps its session); anything else as UNAUTHENTICATED (401).
 */
export function unauthenticatedUnlessOutage(error: unknown): never {
  if (isOutage(error)) throw error;
  throw appError("UNAUTHENTICATED");
}

export interface DescribedError {
  code: ErrorCode;
  status: number;
  message: string;
  fields?: Record<string, string>;
  /** Response headers to send with it (ERROR_HEADER_NAMES only), e.g. Retry-After on a 429. */
  headers?: Record<string, string>;
}

/** The ERROR_HEADER_NAMES a ConnectError's metadata carries (set by toConnectError on the service). */
function headersOf(error: ConnectError): Record<string, string> | undefined {
  const headers: Record<string, string> = {};
  for (const name of ERROR_HEADER_NAMES) {
    const value = error.metadata.get(name);
    if (value) headers[name] = value;
  }
  return Object.keys(headers).length > 0 ? headers : undefined;
}

/**
 * Reads any error into the spec's terms: an AppError as it is; a ConnectError by its ErrorDetail's
 * code when present, else by a code derived from the Connect code; an outage (`isOutage`) is
 * UNAVAILABLE (503); other unknown failures become
 * InternalServerError with the catalogue's message (internal messages are not leaked).
 */
export function describeError(error: unknown): DescribedError {
  if (error instanceof AppError) {
    const described: DescribedError = { code: error.code, status: error.status, message: error.message };
    if (error.fields) described.fields = error.fields;
    if (error.headers) described.headers = error.headers;
    return described;
  }
  if (!(error instanceof ConnectError) && isOutage(error)) {
    return { code: "UNAVAILABLE", status: 503, message: ERROR_CATALOGUE.UNAVAILABLE.message };
  }
  const connectError = ConnectError.from(error);
  const detail: ErrorDetail | undefined = connectError.findDetails(ErrorDetailSchema)[0];
  if (detail && isErrorCode(detail.code)) {
    const fields = Object.keys(detail.fields).length > 0 ? { ...detail.fields } : undefined;
    const described: DescribedError = {
      code: detail.code,
      status: ERROR_CATALOGUE[detail.code].status,
      message: connectError.rawMessage,
      fields,
    };
    const headers = headersOf(connectError);
    if (headers) described.headers = headers;
    return described;
  }
  const code = CODE_BY_CONNECT[connectError.code];
  if (code) return { code, status: ERROR_CATALOGUE[code].status, message: ERROR_CATALOGUE[code].message };
  return { code: "InternalServerError", status: 500, message: ERROR_CATALOGUE.InternalServerError.message };
}
