/**
 * Google sign-in, the pure part: what a verified ID token's claims say, where a sign-in may return
 * to, and what a Google identity does to accounts (against account pre-hijacking: an email match
 * alone never signs anyone in to an account that proved its address by password).
 */

/** The claims of a verified Google ID token this service uses. */
export interface GoogleClaims {
  /** Google's stable id of the person (`sub`). */
  sub: string;
  /** Normalised (trimmed, lower case); "" when the token has none. */
  email: string;
  /** `email_verified`: Google vouches that the person controls the address. */
  emailVerified: boolean;
  /** `name`, at most 80 characters; "" when absent. */
  name: string;
}

/** Reads the claims from a verified ID token's payload (Google sends `email_verified` as a boolean; some IdPs as "true"). */
export function googleClaims(payload: Readonly<Record<string, unknown>>): GoogleClaims {
  const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
  const verified = payload.email_verified;
  return {
    sub: text(payload.sub),
    email: text(payload.email).toLowerCase(),
    emailVerified: verified === true || verified === "true",
    name: text(payload.name).slice(0, 80),
  };
}

/** The intents a sign-in starts with (the page it started from). */
export const GOOGLE_INTENTS = ["signin", "signup"] as const;
export type GoogleIntent = (typeof GOOGLE_INTENTS)[number];

export function googleIntent(value: string): GoogleIntent {
  return (GOOGLE_INTENTS as readonly string[]).includes(value) ? (value as GoogleIntent) : "signin";
}

/**
 * Where the browser may go after signing in: a path of this site (`/…`, not `//…` nor `/\\…`, no
 * control characters, at most 512 characters), else `/app`.
 */
export function safeReturnPath(value: string): string {
  if (!value || value.length > 512 || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\"))
    return "/app";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) return "/app";
  return value;
}

/** An account as the decision needs it. */
export interface AccountFacts {
  id: string;
  emailVerified: boolean;
  /** Past its expiry as an unverified account (counts as absent). */
  expired: boolean;
}

/**
 * What a Google sign-in does:
 * - `refuse_unverified`: Google has not verified the email (or there is none): nothing happens;
 * - `sign_in`: the identity is linked to `userId`: sign in;
 * - `create`: no account has the email: a new account, its email verified by Google;
 * - `claim`: the account with the email never verified it (whoever signed up with it never proved
 *   the address): Google's proof verifies it, its unproven password is dropped, and the identity is linked;
 * - `pending_link`: a verified account has the email: linked only after that account signs in with
 *   its password (no pre-hijacking through a Google account made for someone else's address).
 */
export type GoogleOutcome =
  | { kind: "refuse_unverified" }
  | { kind: "sign_in"; userId: string }
  | { kind: "create" }
  | { kind: "claim"; userId: string }
  | { kind: "pending_link"; userId: string };

/**
 * @param linkedUserId the account the identity (`sub`) is linked to, if any.
 * @param byEmail the account whose email is the token's, if any.
 */
export function decideGoogleSignIn(
  claims: GoogleClaims,
  linkedUserId: string | undefined,
  byEmail: AccountFacts | undefined,
): GoogleOutcome {
  if (!claims.sub || !claims.email || !claims.emailVerified) return { kind: "refuse_unverified" };
  if (linkedUserId) return { kind: "sign_in", userId: linkedUserId };
  if (!byEmail || byEmail.expired) return { kind: "create" };
  if (!byEmail.emailVerified) return { kind: "claim", userId: byEmail.id };
  return { kind: "pending_link", userId: byEmail.id };
}
