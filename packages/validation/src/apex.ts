import { parse } from "tldts";
import { normalizeHostname } from "./hostname";

// Kept out of the package's index: the Public Suffix List weighs about 130 kB, so only what judges
// a custom domain (projects, the dashboard's domain panel) loads it, through `@crafter/validation/apex`.

/**
 * The registrable domain `value` is the apex of (e.g. `example-bikes.co.uk` for itself), or null
 * when it is a name under one (`www.example-bikes.co.uk`) or not a domain at all. Judged by the
 * Public Suffix List (tldts), private suffixes included: `bikes.pages.dev` is an apex too.
 */
export function apexOf(value: string): string | null {
  const host = normalizeHostname(value);
  if (!host) return null;
  const parsed = parse(host, { allowPrivateDomains: true });
  if (parsed.isIp || !parsed.domain) return null;
  return parsed.subdomain ? null : parsed.domain;
}

/**
 * Why `value` cannot be a custom domain because it is an apex, or null. A custom domain is proved
 * and routed by a CNAME record, and DNS allows no CNAME at a zone's apex (it holds the zone's SOA
 * and NS records, RFC 1034 §3.6.2): the business uses a name under it and lets its DNS host
 * redirect the apex there.
 */
export function apexProblem(value: string): string | null {
  const apex = apexOf(value);
  return apex
    ? `${apex} is a root domain: DNS allows no CNAME record there. Use a name under it, such as www.${apex}, and have your DNS host redirect ${apex} to it.`
    : null;
}
