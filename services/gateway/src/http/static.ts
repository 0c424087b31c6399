import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import express, { type RequestHandler, Router } from "express";

/**
 * The dashboard's client-side routes: /, the spec's public pages (section 2), the auth pages,
 * /app and /app/*, /_app, the public `/[bucket]` page (one segment without a dot), and the public
 * lead pages (`/f/:formId`, `/f/:formId/embed`, `/preferences/:token`; `/confirm` is
 * one segment), and an approval link's reviewer page (`/review/:token`). Any other path (e.g. /openapi.json, /a/b) is a real 404, not the dashboard.
 */
export const SPA_PATH =
  /^\/(?:|signin|signup|verify|forgot-password|reset-password|_app|FAQ|usecases|features|why-us|pricing|integrations\/shopify|app(?:\/.*)?|f\/[A-Za-z0-9_-]+(?:\/embed)?|preferences\/[A-Za-z0-9._~-]+|review\/[A-Za-z0-9_-]+|[A-Za-z0-9_-]+)\/?$/;

/** Paths of the prerendered public pages (web/src/features/public/pages.ts), to their file names. */
const PRERENDERED = new Map(
  ["/features", "/usecases", "/why-us", "/pricing", "/integrations/shopify", "/FAQ"].map((path) => [
    path,
    `prerendered/${path.slice(1).replaceAll("/", "__")}.html`,
  ]),
);

/** The prerendered file of a public page when the build wrote it, else undefined. */
function prerenderedPage(root: string, path: string): string | undefined {
  const file = PRERENDERED.get(path.replace(/\/$/, "") || "/");
  return file && existsSync(join(root, file)) ? join(root, file) : undefined;
}

const notFound: RequestHandler = (_req, res) => {
  res.status(404).type("text/plain").send("Not found.");
};

/**
 * Serves the built dashboard (web/dist): hashed assets cached for a year, and index.html for the
 * client-side routes (SPA_PATH). Everything else is 404.
 */
export function dashboard(dist: string): Router {
  const root = resolve(dist);
  const router = Router();
  if (!existsSync(join(root, "index.html"))) {
    router.get(SPA_PATH, (_req, res) => {
      res.status(503).type("text/plain").send("The dashboard is not built. Run `npm run build` and restart.");
    });
    router.use(notFound);
    return router;
  }
  router.use("/assets", express.static(join(root, "assets"), { immutable: true, maxAge: "1y", fallthrough: false }));
  router.use(express.static(root, { index: false, maxAge: 0 }));
  router.get(SPA_PATH, (req, res) => {
    res.setHeader("cache-control", "no-cache");
    // A review link's page is for its reviewer alone: kept out of search engines, and its address is
    // never sent to other sites as a Referer (same-origin, so our own writes keep their Origin).
    if (req.path.startsWith("/review/")) {
      res.setHeader("x-robots-tag", "noindex, nofollow");
      res.setHeader("referrer-policy", "same-origin");
    }
    // The public marketing pages are prerendered at build time (web/scripts/prerender.mjs).
    const prerendered = prerenderedPage(root, req.path);
    res.sendFile(prerendered ?? join(root, "index.html"));
  });
  router.use(notFound);
  return router;
}
