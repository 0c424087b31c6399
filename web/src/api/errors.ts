import { CLIENT_MESSAGES, ERROR_CATALOGUE, isErrorCode } from "@crafter/errors";

/** The failure envelope of docs/api.md: `{ success: false, errorMessage, error: { code, fields } }`. */
export interface ApiErrorInit {
  status: number;
  code?: string | null;
  /** The server's errorMessage, when the server sent one. */
  serverMessage?: string | null;
  fields?: Record<string, string> | null;
  cause?: unknown;
}

/**
 * A failed call to the gateway. `message` follows spec section 8: the server's errorMessage, else
 * the catalogue message of its code, else "Network error!".
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly fields: Record<string, string>;
  readonly serverMessage: string | null;

  constructor(init: ApiErrorInit) {
    const serverMessage = init.serverMessage?.trim() ? init.serverMessage : null;
    const catalogue = init.code && isErrorCode(init.code) ? ERROR_CATALOGUE[init.code].message : null;
    super(serverMessage ?? catalogue ?? CLIENT_MESSAGES.network, { cause: init.cause });
    this.name = "ApiError";
    this.status = init.status;
    this.code = init.code ?? null;
    this.fields = init.fields ?? {};
    this.serverMessage = serverMessage;
  }

  /** A call that never got an HTTP answer (offline, DNS, CORS, aborted). */
  static network(cause?: unknown): ApiError {
    return new ApiError({ status: 0, code: "NETWORK", cause });
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/**
 * The message a toast shows for a thrown error (spec section 8): the server's error message, else
 * the error's own message, else "Network error!".
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error && typeof error === "object") {
    const withServer = error as { rawMessage?: unknown; message?: unknown };
    if (typeof withServer.rawMessage === "string" && withServer.rawMessage.trim()) return withServer.rawMessage;
    if (typeof withServer.message === "string" && withServer.message.trim()) return withServer.message;
  }
  if (typeof error === "string" && error.trim()) return error;
  return CLIENT_MESSAGES.network;
}
