/**
 * Marketing email composition (campaigns and automation sends). Pure: every link, secret and
 * value is passed in, so one contact's email is a deterministic function of its inputs.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { htmlToText } from "@crafter/html";
import escapeHtml from "escape-html";

/** The contact values smart values may name. */
export interface EmailContact {
  contactId: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** The sender's business, shown in every footer (CAN-SPAM: a physical postal address). */
export interface BusinessFooter {
  name: string;
  /** The postal address when the business profile has one; otherwise its website or "". */
  address: string;
}

/** The contact's signed consent links (contacts' GetContactLinks). */
export interface ContactLinks {
  unsubscribeUrl: string;
  preferencesUrl: string;
  /** RFC 8058 one-click target (POST with `List-Unsubscribe=One-Click`). */
  oneClickUrl: string;
}

/**
 * The links of a test send (no contact): the preference centre's page and one-click address with
 * the token `test`, which they refuse as an invalid link, so a test email's footer looks real and
 * changes nobody's consent.
 */
export function testSendLinks(origin: string): ContactLinks {
  const base = origin.replace(/\/+$/, "");
  return {
    unsubscribeUrl: `${base}/preferences/test`,
    preferencesUrl: `${base}/preferences/test`,
    oneClickUrl: `${base}/api/public/unsubscribe/test`,
  };
}

/** Open and click tracking of one delivery. */
export interface Tracking {
  /** The open pixel's absolute URL. */
  openUrl: string;
  /** The signed redirect that records a click and answers 302 to `url`. */
  clickUrl: (url: string) => string;
}

export interface ComposeInput {
  subject: string;
  preheader: string;
  /** The template's HTML with smart values (`{{contact.firstName | "there"}}`). */
  html: string;
  contact: EmailContact;
  business: BusinessFooter;
  links: ContactLinks;
  /** null: no pixel, links untouched (test sends). */
  tracking: Tracking | null;
  /** utm_campaign of the links; null adds no UTM parameters. */
  utmCampaign: string | null;
}

export interface ComposedEmail {
  subject: string;
  html: string;
  text: string;
  /** List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers: Record<string, string>;
}

const SMART_VALUE = /\{\{\s*([a-zA-Z_][\w.]*)\s*(?:\|\s*"([^"]*)"\s*)?\}\}/g;

/** The value of a smart value name, or undefined when it names nothing. */
function smartValue(name: string, input: Pick<ComposeInput, "contact" | "business" | "links">): string | undefined {
  switch (name) {
    case "contact.firstName":
      return input.contact.firstName;
    case "contact.lastName":
      return input.contact.lastName;
    case "contact.email":
      return input.contact.email;
    case "business.name":
      return input.business.name;
    case "business.address":
      return input.business.address;
    case "unsubscribe_url":
      return input.links.unsubscribeUrl;
    case "preferences_url":
      return input.links.preferencesUrl;
    default:
      return undefined;
  }
}

/**
 * Fills smart values: `{{contact.firstName | "there"}}` → the contact's first name, or "there" when
 * it is empty. Unknown names are left as they are. `encode` escapes the values (HTML).
 */
export function fillSmartValues(
  template: string,
  input: Pick<ComposeInput, "contact" | "business" | "links">,
  encode: (value: string) => string = (value) => value,
): string {
  return template.replace(SMART_VALUE, (whole, name: string, fallback: string | undefined) => {
    const value = smartValue(name, input);
    if (value === undefined) return whole;
    return encode(value.trim() === "" ? (fallback ?? "") : value);
  });
}

/** Adds utm_source=crafter, utm_medium=email and utm_campaign to an http(s) URL that has no utm_ parameter yet. */
export function withUtm(url: string, campaign: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return url;
  if ([...parsed.searchParams.keys()].some((key) => key.startsWith("utm_"))) return url;
  parsed.searchParams.set("utm_source", "crafter");
  parsed.searchParams.set("utm_medium", "email");
  parsed.searchParams.set("utm_campaign", campaign);
  return parsed.toString();
}

const HREF = /(<a\b[^>]*?\bhref\s*=\s*)(["'])(.*?)\2/gi;

const unescapeAttr = (value: string) =>
  value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");

/** Rewrites every http(s) link of the HTML (UTM, then the click redirect); consent links stay as they are. */
function rewriteLinks(html: string, input: ComposeInput): string {
  const keep = new Set([input.links.unsubscribeUrl, input.links.preferencesUrl, input.links.oneClickUrl]);
  return html.replace(HREF, (whole, start: string, quote: string, raw: string) => {
    const url = unescapeAttr(raw.trim());
    if (!/^https?:\/\//i.test(url) || keep.has(url)) return whole;
    let target = input.utmCampaign === null ? url : withUtm(url, input.utmCampaign);
    if (input.tracking) target = input.tracking.clickUrl(target);
    return `${start}${quote}${escapeHtml(target)}${quote}`;
  });
}

function footerHtml(input: ComposeInput): string {
  const business = [input.business.name, input.business.address].filter((part) => part.trim() !== "");
  return `<div style="margin:24px auto 0;max-width:560px;font-family:Arial,Helvetica,sans-serif;font-size:12px;line-height:18px;color:#8c8c8c;text-align:center;">
${business.map((line) => `<p style="margin:0;">${escapeHtml(line)}</p>`).join("\n")}
<p style="margin:8px 0 0;">You receive this email because you subscribed to ${escapeHtml(input.business.name || "our emails")}. <a href="${escapeHtml(input.links.unsubscribeUrl)}" style="color:#8c8c8c;">Unsubscribe</a> · <a href="${escapeHtml(input.links.preferencesUrl)}" style="color:#8c8c8c;">Email preferences</a></p>
</div>`;
}

function insertBeforeClose(html: string, tag: "body" | "html", fragment: string): string | null {
  const at = html.toLowerCase().lastIndexOf(`</${tag}>`);
  return at < 0 ? null : `${html.slice(0, at)}${fragment}${html.slice(at)}`;
}

function insertAfterBodyOpen(html: string, fragment: string): string {
  const match = /<body\b[^>]*>/i.exec(html);
  if (!match) return `${fragment}${html}`;
  const at = match.index + match[0].length;
  return `${html.slice(0, at)}${fragment}${html.slice(at)}`;
}

/**
 * One contact's email: smart values filled (escaped), the hidden preheader, links with UTM and
 * click tracking, the open pixel, the footer (business name and address, unsubscribe and
 * preferences links) and the RFC 8058 one-click headers.
 */
export function composeEmail(input: ComposeInput): ComposedEmail {
  const subject = fillSmartValues(input.subject, input)
    .replace(/[\r\n]+/g, " ")
    .trim();
  let html = rewriteLinks(fillSmartValues(input.html, input, escapeHtml), input);
  const preheader = fillSmartValues(input.preheader, input).trim();
  if (preheader !== "")
    html = insertAfterBodyOpen(
      html,
      `<div style="display:none;max-height:0;overflow:hidden;opacity:0;">${escapeHtml(preheader)}</div>`,
    );
  const pixel = input.tracking
    ? `<img src="${escapeHtml(input.tracking.openUrl)}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px;">`
    : "";
  const tail = `${footerHtml(input)}${pixel}`;
  html = insertBeforeClose(html, "body", tail) ?? insertBeforeClose(html, "html", tail) ?? `${html}${tail}`;
  const business = [input.business.name, input.business.address].filter((part) => part.trim() !== "").join("\n");
  const text = [
    htmlToText(fillSmartValues(input.html, input)),
    "",
    "--",
    business,
    `Unsubscribe: ${input.links.unsubscribeUrl}`,
    `Email preferences: ${input.links.preferencesUrl}`,
  ]
    .filter((line, index) => line !== "" || index === 1)
    .join("\n");
  return {
    subject,
    html,
    text,
    headers: {
      "List-Unsubscribe": `<${input.links.oneClickUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

/** What a tracking token carries: the delivery, and for a click the target URL. */
export interface TrackingClaim {
  deliveryId: string;
  url?: string;
}

function mac(secret: string, payload: string): string {
  return createHmac("sha256", secret).update(payload).digest("base64url").slice(0, 22);
}

/** A signed, URL-safe token for the open pixel or a click redirect (HMAC-SHA256, truncated to 128 bits). */
export function signTrackingToken(secret: string, claim: TrackingClaim): string {
  const payload = Buffer.from(
    claim.url === undefined ? claim.deliveryId : `${claim.deliveryId}\n${claim.url}`,
  ).toString("base64url");
  return `${payload}.${mac(secret, payload)}`;
}

/** The claim of a token this secret signed; null for anything else (tampered, truncated, foreign). */
export function verifyTrackingToken(secret: string, token: string): TrackingClaim | null {
  const dot = token.lastIndexOf(".");
  if (dot <= 0 || token.length > 8192) return null;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(mac(secret, payload));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const decoded = Buffer.from(payload, "base64url").toString();
  const newline = decoded.indexOf("\n");
  if (newline < 0) return decoded ? { deliveryId: decoded } : null;
  const url = decoded.slice(newline + 1);
  if (!/^https?:\/\//i.test(url)) return null;
  return { deliveryId: decoded.slice(0, newline), url };
}
