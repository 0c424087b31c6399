import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import express, { type RequestHandler, Router } from "express";

/**
 * Serves the built dashboard (web/dist): hashed assets cached for a year, and index.html for
 * every other GET that is not /api, /auth or /rpc (client-side routes).
 */
export function dashboard(dist: string): Router {
  const root = resolve(dist);
  const router = Router();
  if (!existsSync(join(root, "index.html"))) {
    const notBuilt: RequestHandler = (_req, res) => {
      res.status(503).type("text/plain").send("The dashboard is not built. Run `npm run build` and restart.");
    };
    router.get(/^(?!\/(api|auth|rpc)(\/|$)).*/, notBuilt);
    return router;
  }
  router.use("/assets", express.static(join(root, "assets"), { immutable: true, maxAge: "1y", fallthrough: false }));
  router.use(express.static(root, { index: false, maxAge: 0 }));
  router.get(/^(?!\/(api|auth|rpc)(\/|$)).*/, (_req, res) => {
    res.setHeader("cache-control", "no-cache");
    res.sendFile(join(root, "index.html"));
  });
  return router;
}
