import { appError } from "@crafter/kit";
import express, { type ErrorRequestHandler, type Request, type RequestHandler, Router } from "express";
import { MAX_JSON_DEPTH } from "./schemas";

/** Largest JSON body accepted (413 above it). */
export const MAX_BODY_BYTES = 1024 * 1024;

const ENCODINGS = new Set(["identity", "gzip", "deflate"]);

/** Whether a request carries a body (a length or a chunked transfer), as body-parser judges it. */
export function hasBody(req: Request): boolean {
  return req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;
}

/**
 * Runs a mount's body parsers (a router of their own) only for a request with a body: each parser
 * passes a bodiless one by anyway, and a GET then walks one layer instead of one per parser.
 */
export function whenBody(...parsers: Array<RequestHandler | ErrorRequestHandler>): RequestHandler {
  const router = Router();
  // "/" named: see app.ts (the OpenTelemetry instrumentation and path-less middleware).
  router.use("/", ...parsers);
  return (req, res, next) => (hasBody(req) ? router(req, res, next) : next());
}

/**
 * Refuses a charset other than UTF-8 and a Content-Encoding body-parser cannot inflate (415),
 * before the body is read. (body-parser answers a corrupt gzip stream 400 and a big body 413.)
 */
export const contentHeadersGuard: RequestHandler = (req, _res, next) => {
  if (!hasBody(req)) return next();
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers["content-type"] ?? "")?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    throw appError("UNSUPPORTED_MEDIA_TYPE", "Requests must be sent as UTF-8 JSON.");
  }
  const encoding = (req.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  if (!ENCODINGS.has(encoding)) {
    throw appError("UNSUPPORTED_MEDIA_TYPE", "Content-Encoding must be gzip, deflate or none.");
  }
  next();
};

/** Deepest nesting of a parsed JSON value, walked without recursion (a deep body cannot overflow the stack). */
export function jsonDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== "object") continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (deepest > limit) return deepest;
    for (const child of Object.values(item)) stack.push([child, level]);
  }
  return deepest;
}

/**
 * True when a key or string anywhere in a parsed JSON value holds U+0000, which no text needs and
 * the database cannot store (PostgreSQL's jsonb, docs/adr/0001). Walked without recursion.
 */
export function containsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") {
      if (item.includes("\u0000")) return true;
    } else if (item !== null && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) {
        if (key.includes("\u0000")) return true;
        stack.push(child);
      }
    }
  }
  return false;
}

/**
 * JSON bodies: UTF-8 only, at most MAX_BODY_BYTES, nested at most MAX_JSON_DEPTH levels, and no
 * U+0000 in any key or string (400 otherwise).
 */
export function jsonBody(): RequestHandler[] {
  const parse = express.json({ limit: MAX_BODY_BYTES, inflate: true });
  const depth: RequestHandler = (req, _res, next) => {
    if (jsonDepth(req.body, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      throw appError("CR_ERR_BAD_REQUEST", `The JSON body is nested too deeply (at most ${MAX_JSON_DEPTH} levels).`);
    }
    if (containsNul(req.body)) {
      throw appError("CR_ERR_BAD_REQUEST", "Text may not contain the NUL character (U+0000).");
    }
    next();
  };
  return [contentHeadersGuard, parse, depth];
}

/** Largest CSV body (a contacts import): 20 MB, as the contract says. */
export const MAX_CSV_BYTES = 20 * 1024 * 1024;

/**
 * A raw `text/csv` body as a string (the contacts import upload): over 20 MB is refused before it
 * is read, with IMPORT_TOO_LARGE's message (413).
 */
export function csvBody(): Array<RequestHandler | ErrorRequestHandler> {
  const tooLarge: RequestHandler = (req, _res, next) => {
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (type === "text/csv" && Number(req.headers["content-length"] ?? 0) > MAX_CSV_BYTES) {
      throw appError("IMPORT_TOO_LARGE");
    }
    next();
  };
  const parse = express.text({ type: "text/csv", limit: MAX_CSV_BYTES, inflate: true });
  const chunked: ErrorRequestHandler = (error: unknown, _req, _res, next) => {
    next((error as { type?: string }).type === "entity.too.large" ? appError("IMPORT_TOO_LARGE") : error);
  };
  return [tooLarge, parse, chunked];
}

/** Largest form-encoded body: the RFC 8058 one-click body is `List-Unsubscribe=One-Click`. */
export const MAX_FORM_BYTES = 4 * 1024;

/** `application/x-www-form-urlencoded` bodies (one-click unsubscribe) as a flat object of strings. */
export function formBody(): RequestHandler {
  return express.urlencoded({ extended: false, limit: MAX_FORM_BYTES, parameterLimit: 20, inflate: true });
}
