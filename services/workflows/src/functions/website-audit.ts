import { AppError, appError } from "@crafter/kit";
import { normalizeUrl } from "@crafter/validation";
import { load } from "cheerio";
import { type FetchPageOptions, fetchPage } from "./fetch-page";
import type { FunctionAnswer, WorkflowFunction } from "./types";

/**
 * The website audit of the "website audit summary" viewer: reads one page and reports what a
 * search engine and a visitor see first — title, meta description, headings, images and their alt
 * texts, links, word count, canonical, language, viewport, Open Graph and Twitter tags,
 * structured data — plus a list of issues, each worded as something to fix.
 */

export interface AuditSummary {
  url: string;
  finalUrl: string;
  status: number;
  title: string;
  titleLength: number;
  metaDescription: string;
  metaDescriptionLength: number;
  lang: string;
  canonical: string;
  viewport: string;
  robots: string;
  charset: string;
  favicon: string;
  headings: { level: number; text: string }[];
  h1Count: number;
  images: { total: number; missingAlt: number; emptyAlt: number; missingAltSources: string[] };
  links: { total: number; internal: number; external: number; nofollow: number; externalDomains: string[] };
  wordCount: number;
  openGraph: Record<string, string>;
  twitter: Record<string, string>;
  structuredDataBlocks: number;
  bytes: number;
  truncated: boolean;
  issues: string[];
}

const clean = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

/** Audits HTML already fetched from `finalUrl`. Pure: the same HTML gives the same summary. */
export function auditHtml(
  html: string,
  page: { url: string; finalUrl: string; status: number; bytes: number; truncated: boolean },
): AuditSummary {
  const $ = load(html);
  const base = new URL(page.finalUrl);
  const meta = (selector: string) => clean($(selector).first().attr("content"));
  const title = clean($("head title").first().text() || $("title").first().text());
  const metaDescription = meta('meta[name="description" i]');
  const headings = $("h1, h2, h3, h4, h5, h6")
    .toArray()
    .map((element) => ({ level: Number(element.tagName.slice(1)), text: clean($(element).text()) }))
    .filter((heading) => heading.text);
  const images = $("img").toArray();
  const missing = images.filter((img) => $(img).attr("alt") === undefined);
  const empty = images.filter((img) => $(img).attr("alt") !== undefined && clean($(img).attr("alt")) === "");
  let internal = 0;
  let external = 0;
  let nofollow = 0;
  const externalDomains = new Set<string>();
  const anchors = $("a[href]").toArray();
  for (const anchor of anchors) {
    const href = ($(anchor).attr("href") ?? "").trim();
    if (!href || href.startsWith("#") || /^(javascript|mailto|tel):/i.test(href)) continue;
    if (/\bnofollow\b/i.test($(anchor).attr("rel") ?? "")) nofollow++;
    try {
      const target = new URL(href, base);
      if (target.hostname.replace(/^www\./, "") === base.hostname.replace(/^www\./, "")) internal++;
      else {
        external++;
        externalDomains.add(target.hostname);
      }
    } catch {
      // An unparsable href is neither; it is not counted.
    }
  }
  const body = $("body").clone();
  body.find("script, style, noscript, template, svg").remove();
  // Text nodes one by one: .text() would glue "<p>Hello</p><h1>One</h1>" into one word.
  const texts: string[] = [];
  body
    .find("*")
    .addBack()
    .contents()
    .each((_, node) => {
      if (node.type === "text") texts.push(node.data);
    });
  const wordCount = clean(texts.join(" "))
    .split(" ")
    .filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  const tags = (prefix: string, attribute: string) =>
    Object.fromEntries(
      $(`meta[${attribute}^="${prefix}:"]`)
        .toArray()
        .map((element) => [
          $(element)
            .attr(attribute)!
            .slice(prefix.length + 1),
          clean($(element).attr("content")),
        ])
        .filter(([, content]) => content),
    ) as Record<string, string>;
  const openGraph = tags("og", "property");
  const twitter = tags("twitter", "name");
  const canonicalHref = $('link[rel="canonical" i]').first().attr("href");
  const canonical = canonicalHref ? safeUrl(canonicalHref, base) : "";
  const faviconHref = $('link[rel~="icon" i]').first().attr("href");
  const summary: AuditSummary = {
    url: page.url,
    finalUrl: page.finalUrl,
    status: page.status,
    title,
    titleLength: title.length,
    metaDescription,
    metaDescriptionLength: metaDescription.length,
    lang: clean($("html").attr("lang")),
    canonical,
    viewport: meta('meta[name="viewport" i]'),
    robots: meta('meta[name="robots" i]'),
    charset: clean($("meta[charset]").attr("charset")) || meta('meta[http-equiv="content-type" i]'),
    favicon: faviconHref ? safeUrl(faviconHref, base) : "",
    headings: headings.slice(0, 50),
    h1Count: headings.filter((heading) => heading.level === 1).length,
    images: {
      total: images.length,
      missingAlt: missing.length,
      emptyAlt: empty.length,
      missingAltSources: missing.slice(0, 10).map((img) => safeUrl($(img).attr("src") ?? "", base)),
    },
    links: {
      total: internal + external,
      internal,
      external,
      nofollow,
      externalDomains: [...externalDomains].slice(0, 20),
    },
    wordCount,
    openGraph,
    twitter,
    structuredDataBlocks: $('script[type="application/ld+json" i]').length,
    bytes: page.bytes,
    truncated: page.truncated,
    issues: [],
  };
  summary.issues = issuesOf(summary);
  return summary;
}

function safeUrl(href: string, base: URL): string {
  try {
    return new URL(href, base).toString();
  } catch {
    return href;
  }
}

/** Search-engine and accessibility basics, each as an instruction. */
export function issuesOf(audit: AuditSummary): string[] {
  const issues: string[] = [];
  if (!audit.title) issues.push("Add a <title>: it is the headline of your page in search results.");
  else if (audit.titleLength > 60)
    issues.push(
      `Shorten the title to 60 characters or fewer (it has ${audit.titleLength}); longer titles are cut off in search results.`,
    );
  else if (audit.titleLength < 15)
    issues.push(`Make the title more descriptive (it has only ${audit.titleLength} characters).`);
  if (!audit.metaDescription)
    issues.push("Add a meta description (about 150–160 characters) so search results show your own summary.");
  else if (audit.metaDescriptionLength > 160)
    issues.push(`Shorten the meta description to 160 characters or fewer (it has ${audit.metaDescriptionLength}).`);
  if (audit.h1Count === 0) issues.push("Add one <h1> heading that says what the page is about.");
  else if (audit.h1Count > 1) issues.push(`Use one <h1> per page (found ${audit.h1Count}).`);
  if (audit.images.missingAlt > 0)
    issues.push(
      `Add alt text to ${audit.images.missingAlt} image${audit.images.missingAlt === 1 ? "" : "s"} so screen readers and search engines can understand them.`,
    );
  if (!audit.lang) issues.push('Set the page language, e.g. <html lang="en">.');
  if (!audit.viewport)
    issues.push('Add <meta name="viewport" content="width=device-width, initial-scale=1"> so the page fits phones.');
  if (!audit.canonical) issues.push("Add a canonical link so search engines know the preferred address of this page.");
  if (!audit.openGraph.title && !audit.openGraph.description)
    issues.push("Add Open Graph tags (og:title, og:description, og:image) so shared links show a proper preview.");
  else if (!audit.openGraph.image) issues.push("Add an og:image so shared links show a picture.");
  if (audit.wordCount < 300)
    issues.push(
      `Add more useful text: the page has ${audit.wordCount} word${audit.wordCount === 1 ? "" : "s"}; pages under 300 words rarely rank.`,
    );
  if (/noindex/i.test(audit.robots))
    issues.push("The robots meta tag says noindex: search engines will not list this page.");
  if (audit.truncated) issues.push("The page is very large; only its beginning was audited.");
  return issues;
}

/** The readable summary shown as the result's content (`## Heading` + `- item`). */
export function auditContent(audit: AuditSummary): string {
  const og = Object.entries(audit.openGraph).map(([key, value]) => `og:${key} = ${value}`);
  const lines = [
    "## Page",
    `- Address: ${audit.finalUrl}${audit.finalUrl !== audit.url ? ` (from ${audit.url})` : ""}`,
    `- Title (${audit.titleLength} characters): ${audit.title || "missing"}`,
    `- Meta description (${audit.metaDescriptionLength} characters): ${audit.metaDescription || "missing"}`,
    `- Language: ${audit.lang || "not set"}`,
    `- Canonical: ${audit.canonical || "not set"}`,
    `- Mobile viewport: ${audit.viewport ? "yes" : "no"}`,
    `- Words: ${audit.wordCount}`,
    "",
    "## Headings",
    ...(audit.headings.length
      ? audit.headings.slice(0, 15).map((heading) => `- H${heading.level}: ${heading.text}`)
      : ["- none"]),
    "",
    "## Images and links",
    `- Images: ${audit.images.total}, without alt text: ${audit.images.missingAlt}`,
    `- Links: ${audit.links.total} (${audit.links.internal} internal, ${audit.links.external} external)`,
    "",
    "## Sharing",
    ...(og.length ? og.map((line) => `- ${line}`) : ["- no Open Graph tags"]),
    "",
    "## Issues",
    ...(audit.issues.length ? audit.issues.map((issue) => `- ${issue}`) : ["- No issues found."]),
  ];
  return lines.join("\n");
}

export interface WebsiteAuditOptions extends Omit<FetchPageOptions, "signal"> {}

/**
 * The `websiteAudit` function: `args.url` (scheme optional, https assumed).
 * @throws InvalidUrl, PageNotFound, UnableToReadWebPage (see fetchPage), CR_ERR_WEBSITE_AUDIT when
 *   the page was read but could not be audited.
 */
export function websiteAudit(options: WebsiteAuditOptions): WorkflowFunction {
  return async (args, ctx): Promise<FunctionAnswer> => {
    const url = normalizeUrl(args.url ?? "", { allowSchemeless: true });
    if (!url || !/^https?:/i.test(url)) throw appError("InvalidUrl");
    const page = await fetchPage(url, { ...options, signal: ctx.signal });
    try {
      const audit = auditHtml(page.html, page);
      return { content: auditContent(audit), data: audit as unknown as FunctionAnswer["data"] };
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw appError("CR_ERR_WEBSITE_AUDIT");
    }
  };
}
