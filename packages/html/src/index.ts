export { isBlankHtml, sanitizeEmailHtml, sanitizeHtml } from "./sanitize";
export { htmlToLine, htmlToText } from "./text";
