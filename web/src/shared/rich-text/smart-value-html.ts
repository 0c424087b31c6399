import { parseSmartValues, smartValueLabel, smartValueToken } from "@crafter/email-language";

/**
 * Smart values between their two forms: `{{contact.firstName | "there"}}` text in stored HTML, and
 * `<span data-smart-value>` chips in the rich-text editor. Tokens inside attributes (an href of
 * `{{unsubscribe_url}}`) stay text: only text nodes are read. Browser only (DOMParser).
 */
export function tokensToChips(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
  const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
  for (const text of texts) {
    const value = text.data;
    const tokens = parseSmartValues(value);
    if (tokens.length === 0) continue;
    const parts = doc.createDocumentFragment();
    let at = 0;
    for (const token of tokens) {
      if (token.start > at) parts.append(value.slice(at, token.start));
      const chip = doc.createElement("span");
      chip.setAttribute("data-smart-value", token.name);
      if (token.fallback !== undefined) chip.setAttribute("data-fallback", token.fallback);
      chip.textContent = smartValueLabel(token.name);
      parts.append(chip);
      at = token.end;
    }
    if (at < value.length) parts.append(value.slice(at));
    text.replaceWith(parts);
  }
  return doc.body.innerHTML;
}

/** The editor's HTML with each chip written back as its `{{…}}` token (the stored form). */
export function chipsToTokens(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
  for (const chip of doc.body.querySelectorAll("span[data-smart-value]")) {
    const name = chip.getAttribute("data-smart-value") ?? "";
    const fallback = chip.getAttribute("data-fallback") ?? undefined;
    chip.replaceWith(doc.createTextNode(smartValueToken(name, fallback)));
  }
  return doc.body.innerHTML;
}

/**
 * HTML the rich-text editor cannot keep as written (tables, inline styles, images, layout tags):
 * such HTML opens in the HTML view so that switching to rich text is the user's choice.
 */
export function hasLayoutHtml(html: string): boolean {
  return /<(table|img|center|font|style|head|body|html|div|section)\b|\sstyle\s*=/i.test(html);
}
