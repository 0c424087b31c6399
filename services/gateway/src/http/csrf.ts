import type { Request, RequestHandler } from "express";
import { fail } from "./envelope";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The CSRF rules (DESIGN section 4): a state-changing request must be JSON (415 otherwise) and,
 * when it authenticates with cookies, come from an allowed Origin (403 otherwise). Requests that
 * authenticate with `Authorization: Bearer` and send no cookie are API clients, not browsers.
 * @param allowedOrigins exact origins, e.g. "https://app.crafter.example".
 * @param crossOrigin the public routes other sites may call (registry `crossOrigin`): their Origin
 *   is not checked (they use no cookie); their content type still is.
 */
export function csrfGuard(
  allowedOrigins: string[],
  contentTypes = ["application/json"],
  crossOrigin: (req: Request) => boolean = () => false,
): RequestHandler {
  const allowed = new Set(allowedOrigins.map((origin) => new URL(origin).origin));
  return (req, res, next) => {
    if (SAFE.has(req.method)) return next();
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (!contentTypes.includes(type)) {
      return fail(res, {
        code: "UNSUPPORTED_MEDIA_TYPE",
        status: 415,
        message: "Requests must be sent as application/json.",
      });
    }
    const bearerOnly = req.headers.authorization?.startsWith("Bearer ") && !req.headers.cookie;
    if (bearerOnly || crossOrigin(req)) return next();
    const origin = req.headers.origin;
    if (!origin || !allowed.has(origin)) {
      return fail(res, { code: "FORBIDDEN", status: 403, message: "Cross-origin request refused." });
    }
    next();
  };
}
