import { type AccessTokenVerifier, appError, type ErrorCode } from "@crafter/kit";
import type { ProjectPermission } from "@crafter/roles";
import express, { type Request, type RequestHandler, type Response, Router } from "express";
import { z } from "zod";
import type { Clients } from "../clients";
import { type Acting, type ActingResolver, permissionOf } from "./acting";
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
  /** 200 unless the route creates something (201), or redirects (302: the handler sets Location; the envelope is the body). */
  status?: 200 | 201 | 302;
  /** The catalogue codes this route answers besides the common ones (see `commonErrors`). */
  errors?: readonly ErrorCode[];
  /** Honours `Idempotency-Key` (POST routes that create things). */
  idempotent?: boolean;
  /**
   * The body is left unparsed and kept as the exact bytes: the handler's `body` is a Buffer (at most
   * `limit`), and the route is mounted before the CSRF check, because it authenticates the request
   * itself (Stripe's webhook signature is computed over those bytes). `body` then only documents it.
   */
  signedBody?: { limit: string };
  /**
   * A body that is not JSON (uploads): its content type and documented shape. The handler reads
   * `req` itself; any other content type is refused (415). JSON routes refuse every other type.
   */
  rawBody?: { contentType: "multipart/form-data" | "application/octet-stream"; schema: z.ZodType };
  /**
   * The content type of a parsed body other than JSON: "text/csv" bodies are read as text by the
   * /api parser (http/body.ts csvBody, 20 MB) and validated by `body` as a string;
   * "application/x-www-form-urlencoded" bodies (http/body.ts formBody, 4 KB) as an object. Default JSON.
   */
  bodyType?: "text/csv" | "application/x-www-form-urlencoded";
  /**
   * Other sites call this public route from the browser (the lead assistant widget, a lead form
   * posted from a business's page) or from a mail server (RFC 8058 one-click unsubscribe): /api's
   * CSRF Origin check skips it and it answers CORS (any origin, no credentials). Only for `public`
   * routes that use no cookie.
   */
  crossOrigin?: boolean;
  /**
   * The route works in a project's data that its service keeps under the project owner's user id
   * (contacts, leads, automations, calendar, campaigns, templates, crafts, media). Before the
   * handler, the registry resolves the project (`projectId` of the query, else of a JSON body, else
   * the caller's active project; http/acting.ts) and, for a team member, `as` carries the delegated
   * token that acts as the owner; the handler gets it as `project`. Session routes only.
   */
  actsInProject?: boolean;
  /**
   * The project permission an `actsInProject` route needs (@crafter/roles); unset: project.read
   * for reads, project.write for the rest.
   */
  projectPermission?: ProjectPermission;
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
  /**
   * Call options that forward the caller's access token (session routes only); on an
   * `actsInProject` route in a team member's project, the delegated token (`project.as`).
   */
  as: ReturnType<typeof asUser>;
  /** The project an `actsInProject` route works in (see RouteDef.actsInProject); absent elsewhere. */
  project: Acting;
}

/** Identity helper that keeps a route's schema types tied to its handler. */
export function defineRoute<P extends z.ZodObject, Q extends z.ZodObject, B extends z.ZodType, R extends z.ZodType>(
  def: RouteDef<P, Q, B, R>,
): RouteDef {
  return def as unknown as RouteDef;
}

/**
 * The body of a write route that declares none: a JSON object, ignored (`{}` or an empty body). The
 * CSRF rule still wants `Content-Type: application/json` on every write (DESIGN section 4), so the
 * document says so with a required JSON body rather than none.
 */
export const EMPTY_BODY = z.object({}).meta({
  description: "Nothing to send: an empty JSON object (or an empty body) with Content-Type: application/json.",
});

/** The schema a route's parsed body is validated with and documented by: its own, or EMPTY_BODY on a write. */
export function bodySchema(route: RouteDef): z.ZodType | undefined {
  if (route.rawBody || route.signedBody) return route.body;
  return route.body ?? (route.method === "get" ? undefined : EMPTY_BODY);
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
  // The project it acts in may not be the caller's (404) or their role may not allow it (403).
  if (route.actsInProject) codes.push(...(["NOT_FOUND", "FORBIDDEN"] as const).filter((c) => !codes.includes(c)));
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
export const API_CONTENT_TYPES = [
  "application/json",
  "multipart/form-data",
  "application/octet-stream",
  "text/csv",
  "application/x-www-form-urlencoded",
];

/**
 * Whether a request is for one of the `crossOrigin` routes (method and path, e.g. `POST
 * /api/public/unsubscribe/<token>`; an OPTIONS preflight matches the route's path).
 */
export function crossOriginMatcher(routes: RouteDef[]): (req: Request) => boolean {
  const patterns = routes
    .filter((route) => route.crossOrigin && route.auth === "public")
    .map((route) => ({
      method: route.method.toUpperCase(),
      path: new RegExp(
        `^${route.path
          .split("/")
          .map((part) => (/^\{[^}]+\}$/.test(part) ? "[^/]+" : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
          .join("/")}/?$`,
      ),
    }));
  return (req) => {
    const path = `${req.baseUrl}${req.path}`;
    return patterns.some((p) => (req.method === p.method || req.method === "OPTIONS") && p.path.test(path));
  };
}

/** @throws UNSUPPORTED_MEDIA_TYPE (415) unless the request's content type is `expected`. */
function requireContentType(req: Request, expected: string): void {
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== expected) throw appError("UNSUPPORTED_MEDIA_TYPE", `Requests must be sent as ${expected}.`);
}

/** The `projectId` a request names: its query's, else its JSON body's; undefined when neither. */
function requestedProject(query: unknown, body: unknown): string | undefined {
  for (const source of [query, body]) {
    if (source && typeof source === "object" && !Buffer.isBuffer(source)) {
      const value = (source as Record<string, unknown>).projectId;
      if (typeof value === "string" && value !== "") return value;
    }
  }
  return undefined;
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
  /** Resolves the project of `actsInProject` routes (http/acting.ts). */
  acting: ActingResolver;
}

/**
 * An Express router for the routes under `mount`: session check, then params, query and body
 * validated by the route's schemas (400 CR_ERR_BAD_REQUEST with per-field messages), the
 * Idempotency-Key replay, the handler, and the success envelope.
 *
 * The routes are grouped by their first path segment below the mount (`/api/contacts/…` →
 * "contacts"), a router each: a request walks only its group, not all ~190 routes in turn (the
 * router matches each route's pattern one after the other). A route whose first segment is a
 * parameter would belong to every group: it goes in each, in its place, so the order is kept.
 */
export function mountRoutes(mount: string, routes: RouteDef[], deps: MountDeps, options = { raw: false }): Router {
  const mounted = routes.filter(
    (r) => (r.path === mount || r.path.startsWith(`${mount}/`)) && Boolean(r.signedBody) === options.raw,
  );
  const groups = new Map<string, Router>();
  const anyGroup = Router();
  const everyGroup: Router[] = [anyGroup];
  // Lower case: the router matches paths case-insensitively.
  const segmentOf = (path: string) => path.slice(1).split("/", 1)[0]!.toLowerCase();
  const isParameter = (segment: string) => segment.startsWith("{");
  for (const route of mounted) {
    const segment = segmentOf(route.path.slice(mount.length));
    if (!isParameter(segment) && !groups.has(segment)) {
      const group = Router();
      groups.set(segment, group);
      everyGroup.push(group);
    }
  }
  const groupsOf = (path: string) => {
    const segment = segmentOf(path.slice(mount.length));
    return isParameter(segment) ? everyGroup : [groups.get(segment)!];
  };
  const router = Router();
  // "/" named, as in app.ts: a path-less middleware would cost the route its http.route in traces.
  router.use("/", (req, res, next) => (groups.get(segmentOf(req.path)) ?? anyGroup)(req, res, next));
  const session = requireSession(deps.verify, deps.clients);
  for (const route of mounted) {
    const bodyOf = bodySchema(route);
    const handlers: RequestHandler[] = [];
    if (route.signedBody) handlers.push(express.raw({ type: () => true, limit: route.signedBody.limit }));
    if (route.auth === "session") handlers.push(session);
    handlers.push(async (req, res) => {
      if (route.method !== "get" && !route.signedBody)
        requireContentType(req, route.rawBody?.contentType ?? route.bodyType ?? "application/json");
      const params = route.params ? parseBody(route.params, req.params, "path") : {};
      const query = route.query ? parseBody(route.query, req.query, "query") : {};
      const body = route.signedBody
        ? Buffer.isBuffer(req.body)
          ? req.body
          : Buffer.alloc(0)
        : bodyOf
          ? parseBody(bodyOf, req.body)
          : {};
      let as = route.auth === "session" ? asUser(req) : { headers: { authorization: "" } };
      let project: Acting = { projectId: "", role: "", as, delegated: false };
      if (route.actsInProject && route.auth === "session") {
        project = await deps.acting(
          { userId: req.user?.userId ?? "", token: req.accessToken ?? "" },
          requestedProject(query, body),
          route.projectPermission ?? permissionOf(route.method),
        );
        as = project.as;
      }
      const run = async () => {
        const result = await route.handler({ req, res, params, query, body, as, project });
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
      // A route that wrote its own response (a CSV download, a file) is not enveloped.
      if (!route.fileResponse && !res.headersSent) ok(res, answer.result, answer.status);
    });
    for (const group of groupsOf(route.path)) group[route.method](expressPath(route.path, mount), ...handlers);
  }
  // The raw routes' router lets every other path through to the usual mount.
  if (!options.raw)
    router.use(() => {
      throw appError("NOT_FOUND", "No such API route.");
    });
  return router;
}
