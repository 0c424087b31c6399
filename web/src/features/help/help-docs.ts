/**
 * The help pages: Markdown files in ./pages, each starting with `<!-- routes: /app/a, /app/b -->`
 * (the app paths it explains; a path ending in "/" covers everything under it) and a `# Title`.
 * Pure parsing and search; the files are loaded by help-index.ts, which only the help page imports
 * (the Markdown is about a third of the dashboard's first load when bundled with it).
 */
export interface HelpDoc {
  slug: string;
  title: string;
  routes: string[];
  /** The Markdown without the routes comment. */
  body: string;
  /** Lower-case words of the title and body, for search. */
  words: string[];
}

const ROUTES = /^<!--\s*routes:\s*(.*?)\s*-->\s*\n?/;

const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

export function parseHelpDoc(slug: string, markdown: string): HelpDoc {
  const match = markdown.match(ROUTES);
  const routes = (match?.[1] ?? "")
    .split(",")
    .map((route) => route.trim())
    .filter(Boolean);
  const body = match ? markdown.slice(match[0].length) : markdown;
  const title = body.match(/^#\s+(.+)$/m)?.[1]?.trim() ?? slug;
  return { slug, title, routes, body, words: wordsOf(`${title} ${body}`) };
}

/**
 * The docs that match every word of the query (a word matches a doc word it starts, so "review"
 * finds "reviews"), title matches first; every doc, in the given order, for an empty query.
 */
export function searchHelp(docs: HelpDoc[], query: string): HelpDoc[] {
  const terms = wordsOf(query);
  if (terms.length === 0) return docs;
  const scored = docs
    .map((doc) => {
      const titleWords = wordsOf(doc.title);
      if (!terms.every((term) => doc.words.some((word) => word.startsWith(term)))) return null;
      const inTitle = terms.filter((term) => titleWords.some((word) => word.startsWith(term))).length;
      return { doc, score: inTitle };
    })
    .filter((entry): entry is { doc: HelpDoc; score: number } => entry !== null);
  return scored.sort((a, b) => b.score - a.score).map((entry) => entry.doc);
}

/** The help page of an app path: the doc whose route is the longest match. */
export function helpFor(docs: HelpDoc[], pathname: string): HelpDoc | undefined {
  let best: { doc: HelpDoc; length: number } | undefined;
  for (const doc of docs) {
    for (const route of doc.routes) {
      const matches = route.endsWith("/")
        ? pathname.startsWith(route)
        : pathname === route || pathname.startsWith(`${route}/`);
      if (matches && (!best || route.length > best.length)) best = { doc, length: route.length };
    }
  }
  return best?.doc;
}

/** The query parameter that names the app path whose help to open (`/app/help?page=/app/crafts`). */
export const HELP_FOR_PARAM = "page";

/**
 * The link to the help of an app path. It names the path, not the doc: which doc explains a path
 * is only known once the help pages are loaded, and the help page resolves it.
 */
export function helpHrefFor(pathname: string): string {
  return `/app/help?${new URLSearchParams({ [HELP_FOR_PARAM]: pathname })}`;
}
