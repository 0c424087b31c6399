/** Messages of the spec's email rule (spec section 5). */
export const EMAIL_REQUIRED_MESSAGE = "Email is required";
export const INVALID_EMAIL_MESSAGE = "Invalid email";

// One @, no spaces, a dotted domain whose last label has at least 2 letters.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)*\.[a-z]{2,}$/i;

/** Normalises an address for storage and lookup: trimmed and lower-cased. */
export function normalizeEmail(input: string): string {
  return input.trim().toLowerCase();
}

/**
 * Checks an email address.
 * @returns null when valid, else the spec's message: 'Email is required' or 'Invalid email'.
 */
export function emailError(input: string | null | undefined): string | null {
  const value = (input ?? "").trim();
  if (value === "") return EMAIL_REQUIRED_MESSAGE;
  return EMAIL.test(value) && value.length <= 254 ? null : INVALID_EMAIL_MESSAGE;
}
