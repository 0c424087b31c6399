import { createRequire } from "node:module";
import { type RequestHandler, Router } from "express";
import helmet from "helmet";

const STANDALONE = createRequire(import.meta.url).resolve("@scalar/api-reference/browser/standalone.js");

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Crafter API reference</title>
  </head>
  <body>
    <script id="api-reference" data-url="/api/openapi.json" data-configuration='{"withDefaultFonts":false,"hideClientButton":true,"agent":{"disabled":true},"mcp":{"disabled":true},"showDeveloperTools":"never","showToolbar":"never","telemetry":false}'></script>
    <script src="/api/reference/standalone.js"></script>
  </body>
</html>
`;

/**
 * The API reference for people at /api/reference: Scalar's standalone bundle, served from our own
 * node_modules (nothing from an outside host; its CSP allows only our origin), reading
 * /api/openapi.json.
 */
export function apiReference(document: () => unknown): Router {
  const router = Router();
  // Scalar sets styles inline and evaluates nothing; it needs no other host.
  const csp = helmet.contentSecurityPolicy({
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
      "frame-ancestors": ["'none'"],
    },
  });
  const openapi: RequestHandler = (_req, res) => {
    res.setHeader("cache-control", "no-cache");
    res.json(document());
  };
  router.get("/openapi.json", openapi);
  router.get("/reference", csp, (_req, res) => {
    res.setHeader("cache-control", "no-cache");
    res.type("html").send(PAGE);
  });
  router.get("/reference/standalone.js", (_req, res) => {
    res.sendFile(STANDALONE, { maxAge: "1d" });
  });
  return router;
}
