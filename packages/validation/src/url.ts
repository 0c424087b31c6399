/** Message shown for a URL that breaks the spec's URL rule (spec section 5). */
export const INVALID_URL_MESSAGE = "Invalid URL";

const SCHEMES = ["http:", "https:", "ftp:"];
const LABEL = /^[a-z0-9-]+$/i;

export interface UrlRuleOptions {
  /** When true, a URL without a scheme is accepted and https is assumed. */
  allowSchemeless?: boolean;
}

/**
 * Applies the spec's URL rule: the scheme is http, https or ftp (or absent when `allowSchemeless`,
 * then https is assumed); the hostname has at least 2 labels of letters, digits and hyphens, and
 * its last label is 2 to 14 characters.
 * @returns the normalised URL (with scheme), or null when the rule is broken.
 */
export function normalizeUrl(input: string, options: UrlRuleOptions = {}): string | null {
  const raw = input.trim();
  if (raw === "" || /\s/.test(raw)) return null;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw);
  if (!hasScheme && !options.allowSchemeless) return null;
  // Scheme-less means a bare host ("example.com"): a protocol-relative "//example.com" or a
  // broken scheme ("https:/x.com", "://x.com") has no scheme and is not a host either.
  if (!hasScheme && !/^[a-z0-9]/i.test(raw)) return null;
  if (!hasScheme && /^[^/]*:\/?\//.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(hasScheme ? raw : `https://${raw}`);
  } catch {
    return null;
  }
  if (!SCHEMES.includes(url.protocol)) return null;
  // "mailto:me@acme.com" read scheme-less would become https://mailto:me@acme.com.
  if (url.username || url.password) return null;
  const labels = url.hostname.split(".");
  if (labels.length < 2 || !labels.every((label) => label.length > 0 && LABEL.test(label))) return null;
  const last = labels[labels.length - 1] ?? "";
  if (last.length < 2 || last.length > 14) return null;
  return url.toString();
}

/** True when `input` passes the spec's URL rule. */
export function isValidUrl(input: string, options: UrlRuleOptions = {}): boolean {
  return normalizeUrl(input, options) !== null;
}

/**
 * Domain cleaning (spec section 5): trims, drops the scheme and a leading "www.".
 * "  https://www.Example.com/about " → "Example.com/about".
 */
export function cleanDomain(input: string): string {
  return input
    .trim()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")
    .replace(/^www\./i, "");
}
