/**
 * An EmailWriter craft's final draft (HTML: a Subject and a Preheader paragraph, a rule, then the
 * body): finding it among the craft's steps, splitting it, and pouring it into MJML. Shared by the
 * designer (web: "Open in the email designer") and campaigns (notifications: a campaign from an
 * email craft), so both read a draft the same way. Pure.
 */

export interface PouredEmail {
  subject: string;
  preheader: string;
  mjml: string;
}

const stripTags = (html: string) => html.replace(/<[^>]+>/g, "").trim();

/** Drops what an email's body must not carry (scripts, styles, event handlers, javascript: links). */
export function cleanBodyHtml(html: string): string {
  return html
    .replace(/<(script|style|iframe|object|embed)[^>]*>[\s\S]*?<\/\1>/gi, "")
    .replace(/<(script|style|iframe|object|embed)[^>]*\/?>/gi, "")
    .replace(/\son[a-z]+\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, "")
    .replace(/(href|src)\s*=\s*(["'])\s*javascript:[^"']*\2/gi, '$1="#"');
}

/** Reads `<p><strong>Subject:</strong> …</p>` and `<p><em>Preheader:</em> …</p>` lines off the draft. */
export function splitDraft(html: string): { subject: string; preheader: string; body: string } {
  let subject = "";
  let preheader = "";
  let body = html;
  const line = (label: string) =>
    new RegExp(`<p>\\s*<(?:strong|em|b|i)>\\s*${label}:?\\s*</(?:strong|em|b|i)>([\\s\\S]*?)</p>`, "i");
  const s = body.match(line("Subject"));
  if (s) {
    subject = stripTags(s[1] ?? "");
    body = body.replace(s[0], "");
  }
  const p = body.match(line("Preheader"));
  if (p) {
    preheader = stripTags(p[1] ?? "");
    body = body.replace(p[0], "");
  }
  body = body.replace(/^\s*<hr\s*\/?>/i, "").trim();
  return { subject, preheader, body };
}

const FOOTER = `    <mj-section padding="24px 0">
      <mj-column>
        <mj-text align="center" font-size="12px" color="#6b7280">{{business.name}} · {{business.address}}</mj-text>
        <mj-text align="center" font-size="12px" color="#6b7280"><a href="{{unsubscribe_url}}" style="color:#6b7280">Unsubscribe</a></mj-text>
      </mj-column>
    </mj-section>
`;

/**
 * The draft as a one-column MJML email. With `footer` (the default) it carries the standard footer
 * (business name and address, unsubscribe) the designer shows; a campaign leaves it out, since
 * every campaign email gets the sender's footer when it is composed.
 */
export function craftToMjml(html: string, options: { footer?: boolean } = {}): PouredEmail {
  const { subject, preheader, body } = splitDraft(html);
  const preview = preheader ? `\n    <mj-preview>${preheader.replace(/[<>&]/g, "")}</mj-preview>` : "";
  const mjml = `<mjml>
  <mj-head>${preview}
    <mj-attributes>
      <mj-all font-family="Helvetica, Arial, sans-serif" />
      <mj-text font-size="16px" line-height="1.6" color="#1f2937" />
    </mj-attributes>
  </mj-head>
  <mj-body background-color="#f3f4f6" width="600px">
    <mj-section background-color="#ffffff" padding="32px 24px">
      <mj-column>
        <mj-text>${cleanBodyHtml(body)}</mj-text>
      </mj-column>
    </mj-section>
${options.footer === false ? "" : FOOTER}  </mj-body>
</mjml>
`;
  return { subject, preheader, mjml };
}

/** A step as the craft page has it: only what finding the draft needs. */
export interface DraftStep {
  results?: { content: unknown; format?: string; selected?: boolean }[];
}

/**
 * The craft's final draft: the last step with an HTML result, its selected result if one is
 * selected, else its latest. Null when the craft has no HTML result yet.
 */
export function finalDraft(steps: readonly DraftStep[]): string | null {
  for (let i = steps.length - 1; i >= 0; i--) {
    const html = (steps[i]?.results ?? []).filter(
      (r) => r.format === "html" && typeof r.content === "string" && r.content.trim() !== "",
    );
    if (html.length === 0) continue;
    const chosen = html.find((r) => r.selected) ?? html[html.length - 1];
    return chosen?.content as string;
  }
  return null;
}
