import { convert, type HtmlToTextOptions } from "html-to-text";

const HEADINGS = ["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({
  selector,
  options: { uppercase: false, leadingLineBreaks: 2, trailingLineBreaks: 1 },
}));

/** Email plain text: no hard wrapping (clients wrap), headings as written, links as "label (url)". */
const WITH_LINKS: HtmlToTextOptions = {
  wordwrap: false,
  selectors: [
    ...HEADINGS,
    { selector: "a", options: { linkBrackets: ["(", ")"], hideLinkHrefIfSameAsText: true } },
    { selector: "img", format: "skip" },
    { selector: "ul", options: { itemPrefix: "- " } },
  ],
};

const WITHOUT_LINKS: HtmlToTextOptions = {
  ...WITH_LINKS,
  selectors: [
    ...(WITH_LINKS.selectors ?? []).filter((s) => s.selector !== "a"),
    { selector: "a", options: { ignoreHref: true } },
  ],
};

/**
 * The plain text of HTML (html-to-text): block elements on their own lines, paragraphs separated
 * by a blank line, entities decoded, the head, scripts, styles and images dropped. With
 * `links: true` (the default, for an email's text part) a link reads "label (url)", or just the
 * url when the label is the url; with `links: false` only the label is kept. Pure; never throws.
 */
export function htmlToText(html: string, options: { links?: boolean } = {}): string {
  return convert(html, options.links === false ? WITHOUT_LINKS : WITH_LINKS).trim();
}

/** The text of HTML on one line (whitespace collapsed, links' labels only): names, titles, search. */
export function htmlToLine(html: string): string {
  return htmlToText(html, { links: false }).replace(/\s+/g, " ").trim();
}
