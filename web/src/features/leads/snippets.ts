/**
 * The public address and embed snippets of a lead form and the lead assistant widget. Pure; unit
 * tested in snippets.test.ts. `origin` is where the dashboard is served (the gateway's public origin).
 */

const attr = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function publicFormUrl(origin: string, formId: string): string {
  return `${origin}/f/${encodeURIComponent(formId)}`;
}

export function embedFormUrl(origin: string, formId: string): string {
  return `${publicFormUrl(origin, formId)}/embed`;
}

/** An iframe of the frameless form page. */
export function iframeSnippet(origin: string, formId: string, title = "Sign up"): string {
  return `<iframe src="${attr(embedFormUrl(origin, formId))}" title="${attr(title)}" width="100%" height="560" style="border:0;max-width:640px" loading="lazy"></iframe>`;
}

/** A script tag that inserts the same iframe where it stands and sizes it to the form. */
export function scriptSnippet(origin: string, formId: string): string {
  return `<script async src="${attr(`${origin}/widget/lead-form.js`)}" data-form-id="${attr(formId)}"></script>`;
}

/** The lead assistant chat widget for the business's own site. */
export function assistantSnippet(origin: string, assistantId: string): string {
  return `<script async src="${attr(`${origin}/widget/lead-assistant.js`)}" data-assistant-id="${attr(assistantId)}"></script>`;
}
