import { type HelpDoc, parseHelpDoc } from "./help-docs";

// Every Markdown file of ./pages, bundled as text by Vite.
const files = import.meta.glob("./pages/*.md", { query: "?raw", import: "default", eager: true }) as Record<
  string,
  string
>;

const FIRST = ["getting-started", "navigation", "context-selector"];

/** Every help page: getting started first, then by title. */
export const HELP_DOCS: HelpDoc[] = Object.entries(files)
  .map(([path, text]) => parseHelpDoc(path.replace(/^.*\/|\.md$/g, ""), text))
  .sort((a, b) => {
    const rank = (doc: HelpDoc) => (FIRST.includes(doc.slug) ? FIRST.indexOf(doc.slug) : FIRST.length);
    return rank(a) - rank(b) || a.title.localeCompare(b.title);
  });
