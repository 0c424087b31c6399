import escapeHtml from "escape-html";
/** What the public page at `/<slug>` shows (workflows' PublishedPage; `html` is already sanitized there). */
export interface PublicPage {
  slug: string;
  title: string;
  description: string;
  /** Sanitized by workflows with sanitize-html when it was published: inserted as is. */
  html: string;
  businessName: string;
}

// Inline styles only (the CSP allows them; it allows no script, and the page needs none).
const STYLE = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff;line-height:1.6}
header,main,footer{max-width:760px;margin:0 auto;padding:0 20px}
header{padding-top:20px;font-weight:600;color:#57606a}
main{padding-top:12px;padding-bottom:48px;overflow-wrap:anywhere}
main img{max-width:100%;height:auto}
main h1{font-size:2.2rem;line-height:1.2;margin:0.6em 0 0.4em}
main h2{font-size:1.5rem;line-height:1.3;margin:1.6em 0 0.5em}
main a{color:#0b57d0}
footer{border-top:1px solid #d0d7de;padding-top:16px;padding-bottom:32px;font-size:0.9rem;color:#57606a}
footer a{color:#0b57d0}
`
  .trim()
  .replaceAll("\n", "");

/**
 * The whole HTML document of a published page: its title, description, canonical link and Open
 * Graph tags, the business's name, the page's sanitized sections, and a "Made with Crafter" link
 * back to `origin`.
 * @param canonicalOrigin where the page lives (`https://<domain>` for a business with a verified
 *   custom domain); `origin` when unset.
 */
export function publishedPageHtml(page: PublicPage, origin: string, canonicalOrigin = origin): string {
  const base = origin.replace(/\/$/, "");
  const url = `${canonicalOrigin.replace(/\/$/, "")}/${page.slug}`;
  const title = page.businessName ? `${page.title} · ${page.businessName}` : page.title;
  const siteName = page.businessName || "Crafter";
  const e = escapeHtml;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${e(title)}</title>
    <meta name="description" content="${e(page.description)}" />
    <link rel="canonical" href="${e(url)}" />
    <meta property="og:type" content="website" />
    <meta property="og:site_name" content="${e(siteName)}" />
    <meta property="og:title" content="${e(title)}" />
    <meta property="og:description" content="${e(page.description)}" />
    <meta property="og:url" content="${e(url)}" />
    <meta name="twitter:card" content="summary" />
    <meta name="generator" content="Crafter" />
    <style>${STYLE}</style>
  </head>
  <body>
    <header>${page.businessName ? `<span data-business>${e(page.businessName)}</span>` : ""}</header>
    <main id="content">
${page.html}
    </main>
    <footer>${page.businessName ? `${e(page.businessName)} · ` : ""}<a href="${e(`${base}/`)}" data-made-with>Made with Crafter</a></footer>
  </body>
</html>
`;
}

/**
 * The home page of a business's custom domain with more than one published page: its name and a
 * link to each page (title and description), canonical at `canonicalOrigin`.
 */
export function projectPagesIndexHtml(
  pages: Array<Pick<PublicPage, "slug" | "title" | "description" | "businessName">>,
  origin: string,
  canonicalOrigin: string,
): string {
  const e = escapeHtml;
  const businessName = pages[0]?.businessName ?? "";
  const home = `${canonicalOrigin.replace(/\/$/, "")}/`;
  const title = businessName || "Pages";
  const items = pages
    .map(
      (page) =>
        `      <li><a href="/${e(page.slug)}">${e(page.title || page.slug)}</a>${page.description ? `<br />${e(page.description)}` : ""}</li>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${e(title)}</title>
    <link rel="canonical" href="${e(home)}" />
    <meta property="og:type" content="website" />
    <meta property="og:site_name" content="${e(title)}" />
    <meta property="og:title" content="${e(title)}" />
    <meta property="og:url" content="${e(home)}" />
    <meta name="generator" content="Crafter" />
    <style>${STYLE}main li{margin:0 0 16px}</style>
  </head>
  <body>
    <header>${businessName ? `<span data-business>${e(businessName)}</span>` : ""}</header>
    <main id="content">
      <h1>${e(title)}</h1>
      <ul data-pages>
${items}
      </ul>
    </main>
    <footer>${businessName ? `${e(businessName)} · ` : ""}<a href="${e(`${origin.replace(/\/$/, "")}/`)}" data-made-with>Made with Crafter</a></footer>
  </body>
</html>
`;
}

/** The plain 404 page a custom domain answers for anything that is not one of its business's pages. */
export function notFoundHtml(): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>Page not found</title>
    <style>${STYLE}</style>
  </head>
  <body>
    <main id="content"><h1>Page not found</h1><p>There is no page at this address.</p></main>
  </body>
</html>
`;
}
