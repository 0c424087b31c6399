import { type AccessTokenVerifier, appError, type ErrorCode } from "@crafter/kit";
import { type Request, type RequestHandler, type Response, Router } from "express";
import { z } from "zod";
import type { Clients } from "../clients";
import { ok, parseBody } from "./envelope";
import type { Idempotency } from "./idempotency";
import { asUser, requireSession } from "./session";

/**
 * One REST route: the single place that both validates a request and documents it in the OpenAPI
 * document (http/openapi.ts). A route file exports `(deps) => RouteDef[]`; routes/index.ts lists
 * the files, so registering a new file is one line there.
 */
export interface RouteDef<
  P extends z.ZodObject = z.ZodObject,
  Q extends z.ZodObject = z.ZodObject,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI-style path from the root, e.g. `/api/workflowsV2/{id}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** `session`: a valid access token (cookie `crafter_at` or `Authorization: Bearer`) is required. */
  auth: "public" | "session";
  params?: P;
  query?: Q;
  body?: B;
  /** The schema of `result` in the success envelope. */
  response: R;
  /** 200 unless the route creates something (201). */
  status?: 200 | 201;
  /** The catalogue codes this route answers besides the common ones (see `commonErrors`). */
  errors?: readonly ErrorCode[];
  /** Honours `Idempotency-Key` (POST routes that create things). */
  idempotent?: boolean;
  /**
   * A body that is not JSON (uploads): its content type and documented shape. The handler reads
   * `req` itself; any other content type is refused (415). JSON routes refuse every other type.
   */
  rawBody?: { contentType: "multipart/form-data" | "application/octet-stream"; schema: z.ZodType };
  /** The route answers a file, not the envelope: its content type(s) in the document; the handler writes `res`. */
  fileResponse?: string[];
  handler: (ctx: RouteContext<z.output<P>, z.output<Q>, z.output<B>>) => Promise<z.input<R>>;
}

export interface RouteContext<P, Q, B> {
  req: Request;
  res: Response;
  params: P;
  query: Q;
  body: B;
  /** Call options that forward the caller's access token (session routes only). */
  as: ReturnType<typeof asUser>;
}

/** Identity helper that keeps a route's schema types tied to its handler. */
export function defineRoute<P extends z.ZodObject, Q extends z.ZodObject, B extends z.ZodType, R extends z.ZodType>(
  def: RouteDef<P, Q, B, R>,
): RouteDef {
  return def as unknown as RouteDef;
}

/** Codes every route may answer, by what it takes (documented on each operation). */
export function commonErrors(route: RouteDef): ErrorCode[] {
  const codes: ErrorCode[] = ["CR_ERR_BAD_REQUEST", "UNAVAILABLE"];
  if (route.method !== "get") codes.push("FORBIDDEN", "UNSUPPORTED_MEDIA_TYPE");
  // A session route also refuses unverified users, and an API key without the scope or over its limit.
  if (route.auth === "session") {
    codes.push("UNAUTHENTICATED", "EMAIL_NOT_VERIFIED", "RATE_LIMITED");
    if (route.method === "get") codes.push("FORBIDDEN");
  }
  if (route.idempotent) codes.push("IDEMPOTENCY_KEY_REUSED", "CONFLICT");
  return codes;
}

export const IDEMPOTENCY_HEADER = "idempotency-key";

/** The `Idempotency-Key` header of idempotent routes: 1 to 255 printable ASCII characters. */
export const idempotencyHeaders = z.object({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .min(1, "Idempotency-Key must be 1 to 255 characters")
    .max(255, "Idempotency-Key must be 1 to 255 characters")
    .regex(/^[\x21-\x7e]+$/, "Idempotency-Key must be printable ASCII without spaces")
    .optional()
    .meta({
      description:
        "Makes a retry safe: the same key with the same body replays the first answer for 24 hours; with another body → 422.",
    }),
});

/** The content types /api accepts before routing (csrfGuard); each route then accepts exactly its own. */
export const API_CONTENT_TYPES = ["application/json", "multipart/form-data", "application/octet-stream"];

/** @throws UNSUPPORTED_MEDIA_TYPE (415) unless the request's content type is `expected`. */
function requireContentType(req: Request, expected: string): void {
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== expected) throw appError("UNSUPPORTED_MEDIA_TYPE", `Requests must be sent as ${expected}.`);
}

/** `/api/x/{id}` → `/api/x/:id`, relative to `mount` (e.g. "/api"). */
export function expressPath(path: string, mount: string): string {
  return path.slice(mount.length).replace(/\{([^}]+)\}/g, ":$1") || "/";
}

export interface MountDeps {
  verify: AccessTokenVerifier;
  /** Auth's client: a personal API key is traded there for a user access token (requireSession). */
  clients: Pick<Clients, "auth">;
  idempotency: Idempotency;
}

/**
 * An Express router for the routes under `mount`: session check, then params, query and body
 * validated by the route's schemas (400 CR_ERR_BAD_REQUEST with per-field messages), the
 * Idempotency-Key replay, the handler, and the success envelope.
 */
export function mountRoutes(mount: string, routes: RouteDef[], deps: MountDeps): Router {
  const router = Router();
  const session = requireSession(deps.verify, deps.clients);
  for (const route of routes.filter((r) => r.path === mount || r.path.startsWith(`${mount}/`))) {
    const handlers: RequestHandler[] = [];
    if (route.auth === "session") handlers.push(session);
    handlers.push(async (req, res) => {
      if (route.method !== "get") requireContentType(req, route.rawBody?.contentType ?? "application/json");
      const params = route.params ? parseBody(route.params, req.params, "path") : {};
      const query = route.query ? parseBody(route.query, req.query, "query") : {};
      const body = route.body ? parseBody(route.body, req.body) : {};
      const as = route.auth === "session" ? asUser(req) : { headers: { authorization: "" } };
      const run = async () => {
        const result = await route.handler({ req, res, params, query, body, as });
        return { status: route.status ?? 200, result };
      };
      const key = route.idempotent
        ? parseBody(idempotencyHeaders, req.headers, "header")[IDEMPOTENCY_HEADER]
        : undefined;
      const answer =
        key !== undefined
          ? await deps.idempotency.run(
              { userId: req.user?.userId ?? "", route: `${route.method} ${route.path}`, key, body },
              run,
              res,
            )
          : await run();
      if (!route.fileResponse && !res.headersSent) ok(res, answer.result, answer.status);
    });
    router[route.method](expressPath(route.path, mount), ...handlers);
  }
  router.use(() => {
    throw appError("NOT_FOUND", "No such API route.");
  });
  return router;
}
