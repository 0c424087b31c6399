import { Code, ConnectError } from "@connectrpc/connect";
import { type ErrorDetail, ErrorDetailSchema } from "@crafter/proto/crafter/common/v1/error_pb";
import { ERROR_CATALOGUE, type ErrorCode, isErrorCode } from "./codes";

const CONNECT_CODE_BY_STATUS: Record<number, Code> = {
  400: Code.InvalidArgument,
  401: Code.Unauthenticated,
  402: Code.FailedPrecondition,
  403: Code.PermissionDenied,
  404: Code.NotFound,
  409: Code.Aborted,
  415: Code.InvalidArgument,
  422: Code.FailedPrecondition,
  429: Code.ResourceExhausted,
  500: Code.Internal,
  502: Code.Unavailable,
  503: Code.Unavailable,
};

/**
 * A ConnectError carrying one of the spec's codes as an `ErrorDetail`, so it survives gRPC and the
 * Connect protocol alike. The Connect code follows the catalogue's HTTP status.
 * @param message defaults to the catalogue's message for `code`.
 * @param fields field name → message, for validation errors.
 */
export function appError(code: ErrorCode, message?: string, fields?: Record<string, string>): ConnectError {
  const entry = ERROR_CATALOGUE[code];
  const connectCode = CONNECT_CODE_BY_STATUS[entry.status] ?? Code.Unknown;
  return new ConnectError(message ?? entry.message, connectCode, undefined, [
    { desc: ErrorDetailSchema, value: { code, fields: fields ?? {} } },
  ]);
}

/** Shorthand for a validation failure: CR_ERR_BAD_REQUEST (or `code`) with per-field messages. */
export function badRequest(fields: Record<string, string>, code: ErrorCode = "CR_ERR_BAD_REQUEST"): ConnectError {
  const first = Object.values(fields)[0];
  return appError(code, first ?? ERROR_CATALOGUE[code].message, fields);
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
 * True when `error` says a server we depend on is down or unreachable (MongoDB/FerretDB, Redis, a
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

export interface DescribedError {
  code: ErrorCode;
  status: number;
  message: string;
  fields?: Record<string, string>;
}

/**
 * Reads any error thrown by an RPC into the spec's terms: the ErrorDetail's code when present,
 * else one derived from the Connect code; unknown failures become InternalServerError with the
 * catalogue's message (internal messages are not leaked).
 */
export function describeError(error: unknown): DescribedError {
  if (!(error instanceof ConnectError) && isOutage(error)) {
    return { code: "UNAVAILABLE", status: 503, message: ERROR_CATALOGUE.UNAVAILABLE.message };
  }
  const connectError = ConnectError.from(error);
  const detail: ErrorDetail | undefined = connectError.findDetails(ErrorDetailSchema)[0];
  if (detail && isErrorCode(detail.code)) {
    const fields = Object.keys(detail.fields).length > 0 ? { ...detail.fields } : undefined;
    return { code: detail.code, status: ERROR_CATALOGUE[detail.code].status, message: connectError.rawMessage, fields };
  }
  const code = CODE_BY_CONNECT[connectError.code];
  if (code) return { code, status: ERROR_CATALOGUE[code].status, message: ERROR_CATALOGUE[code].message };
  return { code: "InternalServerError", status: 500, message: ERROR_CATALOGUE.InternalServerError.message };
}
