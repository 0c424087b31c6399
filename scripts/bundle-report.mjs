// The dashboard's first load, measured on the built web/dist: every file a browser fetches before
// the app can render — index.html's module script, its modulepreloads and stylesheets, and any
// module those files import statically (followed, in case a dependency is not preloaded) — with
// each file's gzipped size (zlib's default level, as a gzip-compressing server sends it).
// Prints one row a file and the total, and exits 1 when the total is over the budget. Then, for
// information, what the first page of the marketing site and of the dashboard fetch on top (their
// layout, page and antd's App chunks, from Vite's manifest), which the budget does not cover.
//
//   node scripts/bundle-report.mjs [--budget <KB>] [--dist <dir>] [--json]
//
// KB are 1,000 bytes (as Vite prints them). The budget defaults to 200 KB.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    budget: { type: "string", default: "200" },
    dist: { type: "string", default: join(root, "web/dist") },
    json: { type: "boolean", default: false },
  },
});
const budgetKb = Number(values.budget);
if (!Number.isFinite(budgetKb) || budgetKb <= 0) throw new Error(`--budget must be a positive number of KB`);
const dist = values.dist;
const indexFile = join(dist, "index.html");
if (!existsSync(indexFile)) {
  console.error(`${indexFile} does not exist: build the dashboard first (npm run build -w web).`);
  process.exit(2);
}

/** The value of one attribute of a tag's source text, or undefined. */
const attribute = (tag, name) => tag.match(new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, "i"))?.[1];

/** What index.html makes the browser fetch at once: [{ url, kind }] in document order. */
function entryFiles(html) {
  const files = [];
  for (const [tag] of html.matchAll(/<(script|link)\b[^>]*>/gi)) {
    if (/^<script/i.test(tag)) {
      const src = attribute(tag, "src");
      if (src && attribute(tag, "type") === "module") files.push({ url: src, kind: "script" });
    } else {
      const rel = attribute(tag, "rel");
      const href = attribute(tag, "href");
      if (href && rel === "modulepreload") files.push({ url: href, kind: "preload" });
      else if (href && rel === "stylesheet") files.push({ url: href, kind: "css" });
    }
  }
  return files;
}

/** The relative modules a built chunk imports statically (`import … from "./x.js"`, `import "./x.js"`). */
function staticImports(code) {
  const specifiers = [];
  for (const match of code.matchAll(/\b(?:import|export)\s*(?:[\w${},*\s]+?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g))
    specifiers.push(match[1]);
  return specifiers;
}

const html = readFileSync(indexFile, "utf8");
const rows = [];
const seen = new Set();
const queue = entryFiles(html).map((file) => ({ ...file, path: posix.normalize(file.url) }));
while (queue.length > 0) {
  const file = queue.shift();
  if (/^(?:[a-z]+:)?\/\//i.test(file.path)) throw new Error(`index.html loads ${file.path} from another origin`);
  if (seen.has(file.path)) continue;
  seen.add(file.path);
  const bytes = readFileSync(join(dist, file.path));
  rows.push({ file: file.path, kind: file.kind, bytes: bytes.length, gzip: gzipSync(bytes).length });
  if (file.path.endsWith(".js")) {
    for (const specifier of staticImports(bytes.toString("utf8"))) {
      const path = posix.join(posix.dirname(file.path), specifier);
      if (!seen.has(path)) queue.push({ path, kind: "import" });
    }
  }
}

/** The lazily loaded chunks a first page adds: source modules, as Vite's manifest names them. */
const FIRST_PAGES = [
  {
    page: "/ (marketing home)",
    modules: ["src/app/ant-app.tsx", "src/app/layouts/PublicLayout.tsx", "src/features/home/HomePage.tsx"],
  },
  {
    page: "/app/dashboard",
    modules: [
      "src/app/ant-app.tsx",
      "src/app/layouts/AppLayout.tsx",
      "src/routing/RouteGate.tsx",
      "src/features/dashboard/DashboardPage.tsx",
    ],
  },
];

/** Each first page's extra files (not in the first load) and their gzipped total, or why not known. */
function firstPages() {
  const manifestFile = join(dist, ".vite/manifest.json");
  if (!existsSync(manifestFile)) return [];
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
  return FIRST_PAGES.map(({ page, modules }) => {
    const missing = modules.filter((module) => !manifest[module]);
    if (missing.length > 0) return { page, missing };
    const files = new Set();
    const visit = (key) => {
      const chunk = manifest[key];
      const file = `/${chunk.file}`;
      if (files.has(file)) return;
      files.add(file);
      for (const css of chunk.css ?? []) files.add(`/${css}`);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    for (const module of modules) visit(module);
    const extra = [...files].filter((file) => !seen.has(file));
    const gzip = extra.reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file))).length, 0);
    return { page, files: extra.length, gzip };
  });
}

const total = rows.reduce((sum, row) => sum + row.gzip, 0);
const raw = rows.reduce((sum, row) => sum + row.bytes, 0);
const kb = (bytes) => (bytes / 1000).toFixed(2);
const over = total > budgetKb * 1000;

if (values.json) {
  console.log(JSON.stringify({ budgetKb, totalGzipBytes: total, totalBytes: raw, files: rows }, null, 2));
} else {
  const width = Math.max(...rows.map((row) => row.file.length), 4);
  console.log(`First load of ${indexFile.slice(root.length + 1)}: ${rows.length} files`);
  console.log(`${"file".padEnd(width)}  kind     ${"raw KB".padStart(9)}  ${"gzip KB".padStart(9)}`);
  for (const row of [...rows].sort((a, b) => b.gzip - a.gzip))
    console.log(
      `${row.file.padEnd(width)}  ${row.kind.padEnd(7)}  ${kb(row.bytes).padStart(9)}  ${kb(row.gzip).padStart(9)}`,
    );
  console.log(`${"total".padEnd(width)}           ${kb(raw).padStart(9)}  ${kb(total).padStart(9)}`);
  console.log(`${over ? "OVER" : "within"} the budget of ${budgetKb} KB gzipped`);
  for (const entry of firstPages()) {
    if (entry.missing) console.log(`then ${entry.page}: not measured, the manifest has no ${entry.missing.join(", ")}`);
    else console.log(`then ${entry.page}: ${kb(entry.gzip)} KB gzipped more over ${entry.files} files`);
  }
}
if (over) {
  console.error(`The dashboard's first load is ${kb(total)} KB gzipped, over the budget of ${budgetKb} KB.`);
  process.exit(1);
}
