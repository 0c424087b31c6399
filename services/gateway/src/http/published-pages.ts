import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Client } from "@connectrpc/connect";
import { describeError } from "@crafter/kit";
import type { PagesService } from "@crafter/proto/crafter/workflows/v1/pages_pb";
import { pageSlugProblem } from "@crafter/validation";
import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { publishedPageHtml } from "../domain/published-page-html";

/**
 * `GET /<slug>`: a page published from a craft, rendered on the server. Paths that
 * cannot be a page's address (the site's own pages, reserved words, other shapes) go on to the
 * dashboard; an address nobody published answers the dashboard's index.html with status 404, where
 * the app shows its "Page not found".
 */
export function publishedPages(
  pages: Client<typeof PagesService>,
  dist: string,
  origin: string,
  logger: Logger,
): RequestHandler {
  const index = join(resolve(dist), "index.html");
  return async (req, res, next) => {
    const slug = req.params.slug;
    if (typeof slug !== "string" || pageSlugProblem(slug)) return next();
    try {
      const { page } = await pages.getPublishedPage({ slug });
      if (!page) return next();
      res.setHeader("cache-control", "no-cache");
      res.status(200).type("html").send(publishedPageHtml(page, origin));
    } catch (error) {
      const described = describeError(error);
      if (described.code === "NOT_FOUND") {
        res.setHeader("cache-control", "no-cache");
        if (existsSync(index)) return res.status(404).sendFile(index);
        return res.status(404).type("text/plain").send("Not found.");
      }
      logger.warn({ err: error, slug }, "published page unavailable");
      res.status(described.status >= 500 ? described.status : 503).setHeader("retry-after", "5");
      res.type("text/plain").send("This page is unavailable for a moment. Please try again.");
    }
  };
}
