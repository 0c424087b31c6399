import sanitize from "sanitize-html";

/**
 * The one sanitize-html configuration of Crafter: what HTML a craft, a published page or an email
 * may carry. Text structure, emphasis, links, images and tables; never a script, style element,
 * frame, form, event handler or `javascript:` URL. Links go only to http(s), mailto and tel;
 * images only from http(s) (or relative). Tags outside the list are dropped, their text kept.
 */
const CONTENT_TAGS = [
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "p",
  "br",
  "hr",
  "ul",
  "ol",
  "li",
  "strong",
  "b",
  "em",
  "i",
  "u",
  "s",
  "blockquote",
  "a",
  "img",
  "span",
  "div",
  "section",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "figure",
  "figcaption",
  "code",
  "pre",
];

const CONTENT: sanitize.IOptions = {
  allowedTags: CONTENT_TAGS,
  allowedAttributes: {
    a: ["href", "title", "rel", "target"],
    img: ["src", "alt", "width", "height"],
    th: ["colspan", "rowspan"],
    td: ["colspan", "rowspan"],
  },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  // Text inside these is never shown as text either.
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "template", "title", "head", "svg", "math"],
  transformTags: { a: sanitize.simpleTransform("a", { rel: "noopener noreferrer" }) },
};

/** Links on a public page are not endorsements and open in a new tab. */
const PAGE_LINK = sanitize.simpleTransform("a", { rel: "nofollow noopener noreferrer", target: "_blank" });

/** Layout attributes email clients still read from HTML rather than CSS. */
const EMAIL_LAYOUT = ["style", "align", "valign", "width", "height", "bgcolor", "border", "cellpadding", "cellspacing"];

const EMAIL: sanitize.IOptions = {
  ...CONTENT,
  allowedTags: [...CONTENT_TAGS, "center", "font", "small", "sup", "sub", "tfoot", "caption", "col", "colgroup"],
  allowedAttributes: {
    ...Object.fromEntries(Object.entries(CONTENT.allowedAttributes as Record<string, string[]>)),
    "*": EMAIL_LAYOUT,
    a: ["href", "title", "rel", "target", ...EMAIL_LAYOUT],
    img: ["src", "alt", "width", "height", ...EMAIL_LAYOUT],
    font: ["color", "face", "size"],
  },
  // Inline styles stay (email clients need them), but only plain declarations: no url(), no expression().
  allowedStyles: {
    "*": Object.fromEntries(
      [
        "color",
        "background-color",
        "font-family",
        "font-size",
        "font-weight",
        "font-style",
        "line-height",
        "text-align",
        "text-decoration",
        "vertical-align",
        "width",
        "max-width",
        "height",
        "padding",
        "padding-top",
        "padding-right",
        "padding-bottom",
        "padding-left",
        "margin",
        "margin-top",
        "margin-right",
        "margin-bottom",
        "margin-left",
        "border",
        "border-radius",
        "border-collapse",
        "display",
      ].map((property) => [property, [/^[-#%.,\w\s"'()]+$/]]),
    ),
  },
};

/**
 * HTML made safe to store and show (a craft's rich-text result, a published page's sections):
 * the one configuration above. `links: "external"` marks links as a public page's (`rel="nofollow
 * noopener noreferrer"`, `target="_blank"`); otherwise every link gets `rel="noopener noreferrer"`.
 * Pure; never throws.
 */
export function sanitizeHtml(html: string, options: { links?: "external" } = {}): string {
  const config = options.links === "external" ? { ...CONTENT, transformTags: { a: PAGE_LINK } } : CONTENT;
  return sanitize(html, config).trim();
}

/**
 * An email body's HTML made safe to send: the same tags and links as sanitizeHtml, plus the layout
 * tags and attributes email clients rely on (tables with align/width/bgcolor, `<center>`, inline
 * `style` limited to plain declarations). Smart values (`{{contact.firstName}}`) are text and stay.
 * Pure; never throws.
 */
export function sanitizeEmailHtml(html: string): string {
  return sanitize(html, EMAIL).trim();
}

/** The visible text of HTML is empty (only tags, spaces or entities for spaces). */
export function isBlankHtml(html: string): boolean {
  return (
    sanitize(html, { allowedTags: [], allowedAttributes: {}, nonTextTags: CONTENT.nonTextTags })
      .replace(/&nbsp;|\u00a0/g, " ")
      .trim() === ""
  );
}
