import isEmail from "validator/lib/isEmail.js";

/** Messages of the spec's email rule (spec section 5). */
export const EMAIL_REQUIRED_MESSAGE = "Email is required";
export const INVALID_EMAIL_MESSAGE = "Invalid email";

/**
 * validator.js's rule with its defaults, except: no display names ("Name <a@b.c>"), no IP-literal
 * domains, and a top-level domain is required. Quoted local parts, consecutive or trailing dots,
 * and underscores in the domain are refused, as validator.js's own test list expects.
 */
const OPTIONS = {
  allow_display_name: false,
  require_tld: true,
  allow_ip_domain: false,
  allow_utf8_local_part: true,
} as const;

/** Normalises an address for storage and lookup: trimmed and lower-cased. */
export function normalizeEmail(input: string): string {
  return input.trim().toLowerCase();
}

/**
 * Checks an email address with validator.js `isEmail` (the server and the web use this one rule).
 * @returns null when valid, else the spec's message: 'Email is required' or 'Invalid email'.
 */
export function emailError(input: string | null | undefined): string | null {
  const value = (input ?? "").trim();
  if (value === "") return EMAIL_REQUIRED_MESSAGE;
  // Quoted local parts pass isEmail's syntax check, but mail systems treat them inconsistently.
  if (value.startsWith('"')) return INVALID_EMAIL_MESSAGE;
  return value.length <= 254 && isEmail(value, OPTIONS) ? null : INVALID_EMAIL_MESSAGE;
}
