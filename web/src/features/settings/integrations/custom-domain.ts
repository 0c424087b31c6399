import { HOSTNAME_MESSAGES, hostnameProblem, normalizeHostname } from "@crafter/validation";
import { apexOf, apexProblem } from "@crafter/validation/apex";
import type { CustomDomain, DnsRecord } from "../../../api/integrations";

// The custom domain panel's pure parts: the field's check as the owner types, and what a record's
// last check means in words.

/**
 * What is wrong with `value` as the business's domain, or null. The same rules as the projects
 * service (a host name, not an IP, not a special-use name, not a root domain); the platform's own
 * hosts are refused by the server only (the dashboard does not know its CNAME target).
 */
export function domainInputProblem(value: string): string | null {
  const problem = hostnameProblem(value);
  if (problem) return HOSTNAME_MESSAGES[problem];
  return apexProblem(value);
}

/** The domain as it is stored (trimmed, lower case, no trailing dot, punycode). */
export const normalizedDomain = normalizeHostname;

/** A record's state after the last check: created and right, missing, or holding something else. */
export type RecordState = "not_checked" | "found" | "not_found" | "wrong_value";

export function recordState(record: DnsRecord, checkedAt: string | null | undefined): RecordState {
  if (record.ok) return "found";
  if (!checkedAt) return "not_checked";
  return record.found.length > 0 ? "wrong_value" : "not_found";
}

export const RECORD_STATE_LABELS: Record<RecordState, string> = {
  not_checked: "Not checked yet",
  found: "Found",
  not_found: "Not found",
  wrong_value: "Wrong value",
};

/**
 * The record's name as most DNS hosts' "Host" field takes it: relative to the registrable domain
 * (`www` and `_crafter-verification.www` for www.example-bikes.co.uk), or the full name when the
 * registrable domain is unknown.
 */
export function hostField(name: string, domain: string): string {
  const zone = registrableDomain(domain);
  return zone && name.endsWith(`.${zone}`) ? name.slice(0, -(zone.length + 1)) : name;
}

/** The registrable domain (the zone the business manages at its DNS host) that `domain` is under. */
export function registrableDomain(domain: string): string | null {
  const labels = normalizeHostname(domain).split(".");
  for (let at = 1; at < labels.length; at++) {
    const parent = labels.slice(at).join(".");
    if (apexOf(parent)) return parent;
  }
  return null;
}

/** Where the business's published pages answer once the domain is verified. */
export function domainUrls(domain: CustomDomain["domain"]): { home: string; page: (slug: string) => string } {
  return { home: `https://${domain}/`, page: (slug) => `https://${domain}/${slug}` };
}
