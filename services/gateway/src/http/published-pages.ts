import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { describeError } from "@crafter/kit";
import { pageSlugProblem } from "@crafter/validation";
import type { RequestHandler } from "express";
import type { Logger } from "pino";
import type { Clients } from "../clients";
import { publishedPageHtml } from "../domain/published-page-html";
import { customDomainOrigin } from "./custom-domains";

/**
 * `GET /<slug>`: a page published from a craft, rendered on the server. Paths that
 * cannot be a page's address (the site's own pages, reserved words, other shapes) go on to the
 * dashboard; an address nobody published answers the dashboard's index.html with status 404, where
 * the app shows its "Page not found". A page of a business with a verified custom domain names
 * that domain as its canonical address.
 */
export function publishedPages(
  clients: Pick<Clients, "pages" | "customDomainsAsGateway">,
  dist: string,
  origin: string,
  logger: Logger,
): RequestHandler {
  const index = join(resolve(dist), "index.html");
  return async (req, res, next) => {
    const slug = req.params.slug;
    if (typeof slug !== "string" || pageSlugProblem(slug)) return next();
    try {
      const { page } = await clients.pages.getPublishedPage({ slug });
      if (!page) return next();
      const canonical = await canonicalOrigin(clients, page.projectId, origin, logger);
      res.setHeader("cache-control", "no-cache");
      res
        .status(200)
        .type("html")
        .send(publishedPageHtml(page, origin, canonical));
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

/** `https://<domain>` when the page's project has a verified custom domain, else `origin` (also when the lookup fails). */
async function canonicalOrigin(
  clients: Pick<Clients, "customDomainsAsGateway">,
  projectId: string,
  origin: string,
  logger: Logger,
): Promise<string> {
  if (!projectId) return origin;
  try {
    const { domain } = await clients.customDomainsAsGateway.resolveCustomDomain({ projectId });
    return domain ? customDomainOrigin(domain) : origin;
  } catch (error) {
    if (describeError(error).code !== "NOT_FOUND")
      logger.warn({ err: error, projectId }, "custom domain lookup failed");
    return origin;
  }
}
