// Prerenders the public marketing pages (issue 14) after `vite build`: builds src/prerender.tsx for
// Node, renders each page of PUBLIC_PAGES with React's renderToString, and writes
// dist/prerendered/<page>.html from dist/index.html with the page's title, description, canonical
// link and Open Graph tags, and its HTML inside #root. The gateway serves these files for the
// pages' paths (services/gateway/src/http/static.ts); the app renders over them in the browser.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "vite";

const web = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(web, "dist");
const ssrOut = join(web, "dist-ssr");
const origin = (process.env.PUBLIC_ORIGIN ?? "https://crafter.app").replace(/\/$/, "");

const escapeHtml = (text) =>
  text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

await build({
  root: web,
  logLevel: "error",
  configFile: false,
  build: { ssr: "src/prerender.tsx", outDir: ssrOut, emptyOutDir: true, sourcemap: false },
  ssr: { noExternal: true, target: "node" },
});

const { renderPage, PUBLIC_PAGES, prerenderedFile, SITE_NAME } = await import(
  pathToFileURL(join(ssrOut, "prerender.js")).href
);
const template = await readFile(join(dist, "index.html"), "utf8");
await mkdir(join(dist, "prerendered"), { recursive: true });

for (const page of PUBLIC_PAGES) {
  const { html, css } = renderPage(page.path);
  const title = `${page.title} · ${SITE_NAME}`;
  const url = `${origin}${page.path}`;
  const head = [
    `<title>${escapeHtml(title)}</title>`,
    `<meta name="description" content="${escapeHtml(page.description)}" />`,
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${SITE_NAME}" />`,
    `<meta property="og:title" content="${escapeHtml(title)}" />`,
    `<meta property="og:description" content="${escapeHtml(page.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(url)}" />`,
    `<meta name="twitter:card" content="summary" />`,
    `<style data-prerendered>${css}</style>`,
  ].join("\n    ");
  const document = template
    .replace(/<title>[^<]*<\/title>/, "")
    .replace(/<meta name="description"[^>]*>/, "")
    .replace("</head>", `  ${head}\n  </head>`)
    .replace('<div id="root"></div>', `<div id="root">${html}</div>`);
  if (!document.includes(html)) throw new Error("index.html has no empty #root to fill");
  const file = join(dist, prerenderedFile(page.path));
  await writeFile(file, document);
  process.stdout.write(`prerendered ${page.path} → ${file.slice(web.length + 1)} (${document.length} bytes)\n`);
}
await rm(ssrOut, { recursive: true, force: true });
