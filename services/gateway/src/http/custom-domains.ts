import { appError, describeError } from "@crafter/kit";
import type { ResolveCustomDomainResponse } from "@crafter/proto/crafter/projects/v1/custom_domains_pb";
import { hostnameProblem, normalizeHostname, pageSlugProblem } from "@crafter/validation";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import type { Clients } from "../clients";
import { notFoundHtml, projectPagesIndexHtml, publishedPageHtml } from "../domain/published-page-html";

/** What a request on a business's verified custom domain may reach, besides its pages. */
const FORM_PATH = /^\/api\/public\/forms\/([^/]+)(?:\/submissions)?\/?$/;
/** Published media its pages show (a logo's lasting URL, signed media URLs). */
const MEDIA_PATH = /^\/media\//;
/** Paths whose 404 is the JSON envelope rather than the HTML page. */
const API_PATH = /^\/(?:api|auth|rpc)(?:\/|$)/;

/** How a custom domain's pages are linked: TLS is the ingress's (cert-manager, helm/crafter). */
export const customDomainOrigin = (domain: string) => `https://${domain}`;

export interface CustomDomainDeps {
  clients: Pick<Clients, "customDomainsAsGateway" | "pages" | "pagesAsGateway" | "leads">;
  /** The deployment's own host names (PUBLIC_ORIGIN's and EXTRA_ORIGINS'): never a custom domain. */
  platformHosts: string[];
  /** PUBLIC_ORIGIN: the "Made with Crafter" link. */
  origin: string;
  logger: Logger;
}

/**
 * Decides, before anything else, what a request is by its `Host`. The deployment's own hosts (and
 * anything that cannot be a custom domain: IP addresses, localhost, single labels, cluster names)
 * go on to the app. Any other host is looked up (projects' ResolveCustomDomain, a read by `_id`,
 * on every request: nothing is cached, so a removed domain stops serving with the next request):
 * a verified domain serves only its business's published pages (`/` and `/<slug>`), the media they
 * show and its own lead form's endpoints (`/api/public/forms/{formId}` and its submissions);
 * everything else, and every path of an unknown or unverified host, is a 404 (the envelope under
 * /api, /auth and /rpc; a plain page elsewhere).
 */
export function customDomainHosts(deps: CustomDomainDeps): RequestHandler {
  const platform = new Set(deps.platformHosts.map(normalizeHostname));
  return async (req, res, next) => {
    const host = normalizeHostname(req.hostname ?? "");
    if (!host || platform.has(host) || hostnameProblem(host)) return next();
    let domain: ResolveCustomDomainResponse;
    try {
      domain = await deps.clients.customDomainsAsGateway.resolveCustomDomain({ host });
    } catch (error) {
      const described = describeError(error);
      if (described.code === "NOT_FOUND") return notFound(req, res, next);
      deps.logger.warn({ err: error, host }, "custom domain lookup failed");
      return unavailable(res);
    }
    try {
      await serve(deps, domain, req, res, next);
    } catch (error) {
      // A form id or slug the services refuse (unknown, malformed) is not a page of this domain.
      if (describeError(error).status < 500) return notFound(req, res, next);
      deps.logger.warn({ err: error, host, path: req.path }, "custom domain page unavailable");
      return unavailable(res);
    }
  };
}

async function serve(
  deps: CustomDomainDeps,
  domain: ResolveCustomDomainResponse,
  req: Request,
  res: Response,
  next: NextFunction,
): Promise<void> {
  const read = req.method === "GET" || req.method === "HEAD";
  const canonical = customDomainOrigin(domain.domain);
  const form = FORM_PATH.exec(req.path);
  if (form) {
    // Only this business's form; a preflight carries nothing and is answered by the app's CORS.
    if (req.method !== "OPTIONS") {
      const { projectId } = await deps.clients.leads.getPublicForm({ formId: decodeURIComponent(form[1] ?? "") });
      if (projectId !== domain.projectId) return notFound(req, res, next);
    }
    return next();
  }
  if (read && MEDIA_PATH.test(req.path)) return next();
  if (!read) return notFound(req, res, next);
  if (req.path === "/") {
    const { pages } = await deps.clients.pagesAsGateway.listProjectPages({
      projectId: domain.projectId,
      userId: domain.userId,
    });
    const first = pages[0];
    if (!first) return notFound(req, res, next);
    if (pages.length > 1) return page(res, projectPagesIndexHtml(pages, deps.origin, canonical));
    const { page: whole } = await deps.clients.pages.getPublishedPage({ slug: first.slug });
    if (!whole) return notFound(req, res, next);
    return page(res, publishedPageHtml(whole, deps.origin, canonical));
  }
  const slug = /^\/([^/]+)\/?$/.exec(req.path)?.[1] ?? "";
  if (!slug || pageSlugProblem(slug)) return notFound(req, res, next);
  const { page: found } = await deps.clients.pages.getPublishedPage({ slug });
  if (!found || found.projectId !== domain.projectId) return notFound(req, res, next);
  return page(res, publishedPageHtml(found, deps.origin, canonical));
}

function page(res: Response, html: string): void {
  res.setHeader("cache-control", "no-cache");
  res.status(200).type("html").send(html);
}

function notFound(req: Request, res: Response, next: NextFunction): void {
  if (API_PATH.test(req.path)) {
    next(appError("NOT_FOUND"));
    return;
  }
  res.setHeader("cache-control", "no-cache");
  res.status(404).type("html").send(notFoundHtml());
}

function unavailable(res: Response): void {
  res.status(503).setHeader("retry-after", "5");
  res.type("text/plain").send("This page is unavailable for a moment. Please try again.");
}
