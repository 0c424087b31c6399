import DOMPurify from "dompurify";

/**
 * Generated HTML made safe to render: scripts, event handlers and javascript: URLs removed.
 * The server sanitizes saved results, but streamed model output arrives raw, so every HTML we
 * render goes through here.
 */
export function safeHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}
