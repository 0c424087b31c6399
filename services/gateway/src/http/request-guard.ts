import { appError } from "@crafter/kit";
import type { Request, RequestHandler } from "express";
import { fail } from "./envelope";
import type { RouteDef } from "./registry";
import { accessTokenOf } from "./session";

/** The methods the gateway implements at all; any other one (TRACE, PROPFIND, …) is 405 on every path. */
const IMPLEMENTED = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** What the paths outside /auth, /api and /rpc (dashboard, published pages, media, tracking) take. */
const READ_ONLY = ["GET", "HEAD", "OPTIONS"];
/** Connect's streams under /rpc are POSTed. */
const RPC = ["POST", "OPTIONS"];

/** Any control character (C0, DEL, C1): never part of an id, a name or a search term. */
const CONTROL = /\p{Cc}/u;

/** The /api paths served outside the route registry (http/reference.ts). */
const DOCUMENT_PATHS = ["/api/openapi.json", "/api/reference", "/api/reference/standalone.js"];

interface PathEntry {
  pattern: RegExp;
  /** The methods of the path's routes, with HEAD for GET and OPTIONS. */
  methods: Set<string>;
  /** The methods whose route needs a session (so a request without credentials is 401 there). */
  session: Set<string>;
}

/** `/api/x/{id}` → a case-insensitive RegExp of the raw path, as the router matches it (trailing slash allowed). */
function patternOf(path: string): RegExp {
  const source = path
    .split("/")
    .map((part) => (/^\{[^}]+\}$/.test(part) ? "[^/]+" : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${source}/?$`, "i");
}

/**
 * The methods each /auth and /api path takes, from the route registry (the same list the router and
 * the OpenAPI document are built from), plus the documentation paths. Where several templates match
 * one path (`/api/contacts/export` and `/api/contacts/{id}`), the most concrete one is the path's,
 * as OpenAPI matches them (a literal segment before a template, from the left): its methods are
 * the path's, so `Allow` lists what the document says and another method is 405.
 */
export function pathTable(routes: RouteDef[]): (path: string) => PathEntry | undefined {
  const byPath = new Map<string, PathEntry & { concrete: string }>();
  const entry = (path: string) => {
    let found = byPath.get(path);
    if (!found) {
      // One character per segment, "1" literal and "0" template: the greater string is the more concrete.
      const concrete = path
        .split("/")
        .map((part) => (/^\{[^}]+\}$/.test(part) ? "0" : "1"))
        .join("");
      found = { pattern: patternOf(path), methods: new Set(["OPTIONS"]), session: new Set(), concrete };
      byPath.set(path, found);
    }
    return found;
  };
  for (const route of routes) {
    const found = entry(route.path);
    const method = route.method.toUpperCase();
    found.methods.add(method);
    if (method === "GET") found.methods.add("HEAD");
    if (route.auth === "session") found.session.add(method);
  }
  for (const path of DOCUMENT_PATHS) for (const method of ["GET", "HEAD"]) entry(path).methods.add(method);
  const entries = [...byPath.values()];
  return (path) => {
    let best: (PathEntry & { concrete: string }) | undefined;
    for (const candidate of entries)
      if (candidate.pattern.test(path) && (!best || candidate.concrete > best.concrete)) best = candidate;
    return best;
  };
}

/** The decoded text of a percent-encoded query part; the raw text when an escape is malformed (the query parser keeps it so). */
function decodedQuery(part: string): string {
  const text = part.replace(/\+/g, " ");
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * What is wrong with a request target, or undefined: a path segment with a malformed
 * percent-escape, or a control character in a path segment or a query name or value (after
 * percent-decoding).
 */
export function badTarget(url: string): string | undefined {
  const at = url.indexOf("?");
  const path = at < 0 ? url : url.slice(0, at);
  const query = at < 0 ? "" : url.slice(at + 1);
  for (const segment of path.split("/")) {
    let text: string;
    try {
      text = decodeURIComponent(segment);
    } catch {
      return "The request's path holds a malformed percent-escape.";
    }
    if (CONTROL.test(text)) return "The request's path holds a control character.";
  }
  if (query === "") return undefined;
  for (const pair of query.split("&")) {
    const eq = pair.indexOf("=");
    const name = decodedQuery(eq < 0 ? pair : pair.slice(0, eq));
    if (CONTROL.test(name)) return "The request's query holds a control character.";
    if (eq >= 0 && CONTROL.test(decodedQuery(pair.slice(eq + 1))))
      return `The query parameter "${name.slice(0, 40)}" holds a control character.`;
  }
  return undefined;
}

/** The `Allow` header's value for a set of methods, in a stable order. */
function allowOf(methods: Iterable<string>): string {
  const order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
  const set = new Set(methods);
  return order.filter((method) => set.has(method)).join(", ");
}

/**
 * The checks every request passes before any other middleware, decided here once for all routes:
 *
 * - a control character (NUL, CR, LF, DEL, C1…) in a path segment or a query name or value, or a
 *   malformed percent-escape in the path → 400 CR_ERR_BAD_REQUEST (the services would store the
 *   character, or their database refuse it with a 500);
 * - a method the path does not take (TRACE and other unknown methods everywhere; on /auth and /api a
 *   method none of the path's routes has) → 405 METHOD_NOT_ALLOWED with `Allow`;
 * - OPTIONS → 204 with `Allow`; on the public cross-origin routes the CORS preflight answers instead
 *   (with `Allow` set here);
 * - a state-changing request to a session route that carries no credentials at all (no access
 *   cookie, no bearer token or API key) → 401 UNAUTHENTICATED, before the CSRF check could refuse it
 *   403: without credentials there is nothing to forge.
 *
 * Unknown /auth and /api paths pass on to the routers' 404. Answers are in the envelope.
 * @param crossOrigin the registry's cross-origin matcher (their OPTIONS go on to CORS).
 */
export function requestGuard(routes: RouteDef[], crossOrigin: (req: Request) => boolean): RequestHandler {
  const lookup = pathTable(routes);
  return (req, res, next) => {
    const bad = badTarget(req.url);
    if (bad) return fail(res, { code: "CR_ERR_BAD_REQUEST", status: 400, message: bad });
    const path = req.path;
    const api = path === "/api" || path.startsWith("/api/") || path === "/auth" || path.startsWith("/auth/");
    const rpc = path === "/rpc" || path.startsWith("/rpc/");
    const entry = api ? lookup(path) : undefined;
    if (api && !entry) {
      // An unknown /api or /auth path is a 404 (the mounts' fallback) unless the method is unknown everywhere.
      if (IMPLEMENTED.has(req.method) && req.method !== "OPTIONS") return next();
      if (req.method === "OPTIONS") throw appError("NOT_FOUND", "No such API route.");
    }
    const allowed = entry ? entry.methods : new Set(rpc ? RPC : READ_ONLY);
    const allow = allowOf(allowed);
    if (req.method === "OPTIONS") {
      res.setHeader("allow", allow);
      if (api && crossOrigin(req)) return next();
      res.status(204).end();
      return;
    }
    const refused = !IMPLEMENTED.has(req.method) || (entry !== undefined && !allowed.has(req.method));
    if (refused) {
      res.setHeader("allow", allow);
      return fail(res, {
        code: "METHOD_NOT_ALLOWED",
        status: 405,
        message: `${req.method} is not allowed here. Allowed: ${allow}.`,
      });
    }
    if (entry?.session.has(req.method) && !accessTokenOf(req)) throw appError("UNAUTHENTICATED");
    next();
  };
}
