import { ConnectError } from "@connectrpc/connect";
import { appError, type DescribedError, describeError, RATE_LIMIT_HEADER_NAMES } from "@crafter/kit";
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

export function fail(res: Response, error: DescribedError): void {
  const body: Envelope<never> = {
    success: false,
    result: null,
    errorMessage: error.message,
    error: error.fields ? { code: error.code, fields: error.fields } : { code: error.code },
  };
  res.status(error.status).json(body);
}

/**
 * Parses a request body with a zod schema.
 * @throws CR_ERR_BAD_REQUEST with one message per bad field (the first issue of each path).
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.join(".") || "body";
    fields[path] ??= issue.message;
  }
  const first = Object.values(fields)[0]!;
  throw appError("CR_ERR_BAD_REQUEST", first, fields);
}

/** Turns any thrown error into the envelope; body-parser's malformed JSON becomes a 400. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) return;
    if ((error as { type?: string }).type === "entity.parse.failed") {
      fail(res, { code: "CR_ERR_BAD_REQUEST", status: 400, message: "Malformed JSON in the request body." });
      return;
    }
    if ((error as { type?: string }).type === "entity.too.large") {
      fail(res, { code: "CR_ERR_BAD_REQUEST", status: 413, message: "The request body is too large." });
      return;
    }
    const described = describeError(error);
    // A 429 from a service carries Retry-After and the RateLimit headers in its metadata.
    if (error instanceof ConnectError) {
      for (const name of RATE_LIMIT_HEADER_NAMES) {
        const value = error.metadata.get(name);
        if (value) res.setHeader(name, value);
      }
    }
    if (described.status >= 500) logger.error({ err: error, path: req.path }, "request failed");
    fail(res, described);
  };
}
