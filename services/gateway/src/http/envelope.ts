import {
  appError,
  type DescribedError,
  describeError,
  ERROR_CATALOGUE,
  INVALID_URL_MESSAGE,
  isAppError,
} from "@crafter/kit";
import type { ErrorRequestHandler, Response } from "express";
import type { Logger } from "pino";
import type { z } from "zod";

/**
 * The response envelope of every /auth and /api response (DESIGN section 4):
 * `{ success, result, errorMessage, error: { code, fields? } | null }`, with a real HTTP status.
 */
export interface Envelope<T> {
  success: boolean;
  result: T | null;
  errorMessage: string | null;
  error: { code: string; fields?: Record<string, string> } | null;
}

/**
 * A result as plain JSON data: protobuf messages lose their `$typeName`/`$unknown` keys (a route
 * that passes a message through never leaks them), at any depth.
 */
export function plainResult<T>(value: T): T {
  if (Array.isArray(value)) return value.map(plainResult) as T;
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key.startsWith("$")) continue;
    out[key] = plainResult(item);
  }
  return out as T;
}

export function ok<T>(res: Response, result: T, status = 200): void {
  const body: Envelope<T> = { success: true, result: plainResult(result), errorMessage: null, error: null };
  res.status(status).json(body);
}

/** The error envelope with its status, and the headers the error carries (Retry-After and RateLimit on a 429). */
export function fail(res: Response, error: DescribedError): void {
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  // A service's RATE_LIMITED (a link sent a moment ago, an AI provider's limit) carries no window
  // of its own: a minute, as their messages say. The document promises Retry-After on every 429.
  if (error.status === 429 && !res.hasHeader("retry-after")) res.setHeader("retry-after", "60");
  const body: Envelope<never> = {
    success: false,
    result: null,
    errorMessage: error.message,
    error: error.fields ? { code: error.code, fields: error.fields } : { code: error.code },
  };
  res.status(error.status).json(body);
}

/**
 * Parses a request body (or its path parameters, query or headers: `part`) with a zod schema.
 * @throws CR_ERR_BAD_REQUEST with one message per bad field (the first issue of each path).
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, part = "body"): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    // A strict object's unknown keys: one field each.
    const paths = issue.code === "unrecognized_keys" ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
    for (const path of paths) fields[path.join(".") || part] ??= issue.message;
  }
  const messages = Object.values(fields);
  // The spec's InvalidUrl: when links are the only problem (as the services answer it).
  const code = messages.every((m) => m === INVALID_URL_MESSAGE) ? "InvalidUrl" : "CR_ERR_BAD_REQUEST";
  throw appError(code, messages[0]!, fields);
}

/** Seconds a client should wait before retrying while a server it needs is down. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The envelope of an error raised by Express or body-parser itself (http-errors with a 4xx
 * `status`: malformed JSON, a bad percent-escape in a path, an unsupported charset, a corrupt
 * gzip stream, a body too large), or undefined for any other error.
 */
export function httpErrorOf(error: unknown): DescribedError | undefined {
  // Our own errors carry a `status` too; they are described by describeError, with their fields.
  if (isAppError(error)) return undefined;
  const { status, type } = error as { status?: unknown; type?: unknown };
  if (typeof status !== "number" || status < 400 || status >= 500) return undefined;
  switch (type) {
    case "entity.parse.failed":
      return { code: "CR_ERR_BAD_REQUEST", status: 400, message: "Malformed JSON in the request body." };
    case "entity.too.large":
      return { code: "CR_ERR_BAD_REQUEST", status: 413, message: "The request body is too large." };
    case "charset.unsupported":
      return { code: "UNSUPPORTED_MEDIA_TYPE", status: 415, message: "Requests must be sent as UTF-8 JSON." };
    case "encoding.unsupported":
      return {
        code: "UNSUPPORTED_MEDIA_TYPE",
        status: 415,
        message: "Content-Encoding must be gzip, deflate or none.",
      };
  }
  if (status === 415)
    return { code: "UNSUPPORTED_MEDIA_TYPE", status, message: ERROR_CATALOGUE.UNSUPPORTED_MEDIA_TYPE.message };
  if (status === 413) return { code: "CR_ERR_BAD_REQUEST", status, message: "The request body is too large." };
  if (status === 404) return { code: "NOT_FOUND", status, message: "No such API route." };
  return { code: "CR_ERR_BAD_REQUEST", status: 400, message: "The request could not be read." };
}

/**
 * Turns any thrown error into the envelope: Express and body-parser errors by their 4xx status,
 * a server that is down → 503 UNAVAILABLE with Retry-After, anything unknown → 500.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) return;
    const described = httpErrorOf(error) ?? describeError(error);
    if (described.status === 503) {
      res.setHeader("retry-after", String(RETRY_AFTER_SECONDS));
      logger.warn({ err: error, path: req.path }, "a server this request needs is unavailable");
    } else if (described.status >= 500) {
      logger.error({ err: error, path: req.path }, "request failed");
    }
    fail(res, described);
  };
}
