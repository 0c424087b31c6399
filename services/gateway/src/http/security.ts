import type { RequestHandler } from "express";
import helmet from "helmet";

/**
 * Security headers through helmet: a CSP for the dashboard (scripts only from our origin; inline
 * styles allowed because antd writes its CSS-in-JS into <style> tags; nothing may frame us but the
 * lead form's embed page, EMBEDDABLE_PATH),
 * nosniff, Referrer-Policy, X-Frame-Options DENY. HSTS is only sent on requests that came over
 * TLS (directly or, with TRUST_PROXY, per X-Forwarded-Proto): on plain http it would be ignored
 * at best and pin localhost to https at worst.
 */
/** The lead form's embed page, the one page other sites may frame (the iframe snippet). */
export const EMBEDDABLE_PATH = /^\/f\/[A-Za-z0-9_-]+\/embed\/?$/;

/**
 * Resources other sites' pages load: the open-tracking pixel (an email read in a webmail tab), the
 * widget scripts customers embed, and published media (a business logo in emails, `/media/public/<id>`). They get `Cross-Origin-Resource-Policy: cross-origin`; with
 * helmet's default `same-origin` the browser refuses them (ERR_BLOCKED_BY_RESPONSE.NotSameOrigin).
 * Every other header stays the strict one.
 */
export const CROSS_ORIGIN_RESOURCE_PATH = /^\/(t\/o\/[^/]+|widget\/[^/]+\.js|media\/public\/[^/]+)$/;

export function securityHeaders(): RequestHandler[] {
  const strict = helmetWith(["'none'"], { action: "deny" });
  const embeddable = helmetWith(["*"], false);
  const loadableAnywhere = helmetWith(["'none'"], { action: "deny" }, "cross-origin");
  const headers: RequestHandler = (req, res, next) =>
    (EMBEDDABLE_PATH.test(req.path)
      ? embeddable
      : CROSS_ORIGIN_RESOURCE_PATH.test(req.path)
        ? loadableAnywhere
        : strict)(req, res, next);
  const hsts = helmet.strictTransportSecurity({ maxAge: 31_536_000, includeSubDomains: true });
  const hstsOverTls: RequestHandler = (req, res, next) => (req.secure ? hsts(req, res, next) : next());
  return [headers, hstsOverTls];
}

function helmetWith(
  frameAncestors: string[],
  frameguard: { action: "deny" } | false,
  resourcePolicy: "same-origin" | "cross-origin" = "same-origin",
): RequestHandler {
  return helmet({
    crossOriginResourcePolicy: { policy: resourcePolicy },
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:", "blob:"],
        "font-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "worker-src": ["'self'", "blob:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": frameAncestors,
      },
    },
    frameguard,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: false,
    xContentTypeOptions: true,
  });
}
