import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { type ErrorDetail, ErrorDetailSchema } from "@crafter/proto/crafter/common/v1/error_pb";
import { AppError, CancelledError } from "../errors/app-error";
import { ERROR_CATALOGUE, type ErrorCode, isErrorCode } from "../errors/codes";

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
};

/**
 * An AppError as a ConnectError carrying its code as an `ErrorDetail`, so it survives gRPC and the
 * Connect protocol alike; the Connect code follows the catalogue's HTTP status. A CancelledError
 * becomes Canceled. Any other error is returned unchanged.
 */
export function toConnectError(error: unknown): unknown {
  if (error instanceof CancelledError) return new ConnectError(error.message, Code.Canceled);
  if (!(error instanceof AppError)) return error;
  const connectCode = CONNECT_CODE_BY_STATUS[error.status] ?? Code.Unknown;
  return new ConnectError(error.message, connectCode, undefined, [
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
};

export interface DescribedError {
  code: ErrorCode;
  status: number;
  message: string;
  fields?: Record<string, string>;
}

/**
 * Reads any error into the spec's terms: an AppError as it is; a ConnectError by its ErrorDetail's
 * code when present, else by a code derived from the Connect code; unknown failures become
 * InternalServerError with the catalogue's message (internal messages are not leaked).
 */
export function describeError(error: unknown): DescribedError {
  if (error instanceof AppError) {
    return error.fields
      ? { code: error.code, status: error.status, message: error.message, fields: error.fields }
      : { code: error.code, status: error.status, message: error.message };
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
