/**
 * A business's custom domain (spec §1, custom domain): a host name of at least two labels, each 1
 * to 63 letters, digits or inner hyphens, at most 253 characters, under a real top-level domain
 * (letters, or an IDN's `xn--` form). Internationalized names are taken in their ASCII (punycode)
 * form. Never an IP address, a single label, `localhost` or a name under the special-use suffixes
 * a public DNS cannot serve. Shared by projects (which stores and checks) and the gateway (which
 * decides by `Host` whether a request may be a custom domain at all).
 */
export const HOSTNAME_MAX = 253;

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
/** Names a public DNS never answers for a business (RFC 6761, 6762, 8375 and the cluster's own). */
const SPECIAL_SUFFIXES = ["localhost", "local", "internal", "home.arpa", "arpa", "invalid", "cluster.local", "svc"];

export type HostnameProblem = "required" | "too_long" | "not_a_hostname" | "ip_address" | "special_use";

export const HOSTNAME_MESSAGES: Record<HostnameProblem, string> = {
  required: "Domain is required",
  too_long: `Domain has at most ${HOSTNAME_MAX} characters`,
  not_a_hostname: "Enter a domain such as www.example.com (no https:// and no path)",
  ip_address: "Enter a domain name, not an IP address",
  special_use: "This domain cannot be reached on the internet",
};

/**
 * A host name as typed or as sent in `Host`, trimmed, lower-cased, without a trailing dot or a
 * port, in ASCII. "" when it cannot be one (an IDN that does not convert).
 */
export function normalizeHostname(value: string): string {
  let host = value.trim().toLowerCase();
  // A Host header's port (IPv6 literals keep their brackets and are refused below).
  const port = /:\d{1,5}$/.exec(host);
  if (port && !host.startsWith("[")) host = host.slice(0, port.index);
  if (host.endsWith(".")) host = host.slice(0, -1);
  if (/[^\x20-\x7e]/.test(host)) {
    // WHATWG URL parsing converts an IDN to punycode, in Node and in browsers alike.
    try {
      host = new URL(`http://${host}/`).hostname;
    } catch {
      return "";
    }
  }
  return host;
}

/** What is wrong with `value` as a custom domain (after normalizeHostname), or null when it may be one. */
export function hostnameProblem(value: string): HostnameProblem | null {
  if (!value.trim()) return "required";
  const host = normalizeHostname(value);
  if (!host) return "not_a_hostname";
  if (host.length > HOSTNAME_MAX) return "too_long";
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) || /^\[?[0-9a-f:.]*:[0-9a-f:.]*\]?$/.test(host)) return "ip_address";
  const labels = host.split(".");
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return "not_a_hostname";
  if (!TLD.test(labels[labels.length - 1] ?? "")) return "not_a_hostname";
  if (SPECIAL_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) return "special_use";
  return null;
}

/** Whether `host` is `parent` or a name under it (both normalized). */
export function isSameOrSubdomain(host: string, parent: string): boolean {
  return host === parent || host.endsWith(`.${parent}`);
}
