// biome-ignore lint/suspicious/noControlCharactersInRegex: exactly the controls XML 1.0 forbids.
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text for an SVG text node or attribute: the five markup characters as character references, and
 * the characters XML 1.0 forbids (C0 controls but tab and newlines, U+FFFE/U+FFFF, lone surrogates)
 * dropped, since librsvg refuses the whole image over one of them.
 */
export function escapeXml(text: string): string {
  return text
    .replace(FORBIDDEN, "")
    .replace(LONE_SURROGATE, "")
    .replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
