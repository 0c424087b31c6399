/**
 * What the sign-in and sign-up pages read from a Google sign-in coming back (pure; the gateway's
 * google-signin.routes.ts writes these query values):
 * - `?error=<code>`: the sign-in failed (the start or the callback), one message per code;
 * - `?google=link&email=<address>`: the Google identity's email names an account with a password,
 *   which links it at its next password sign-in (no pre-hijacking);
 * - `?google=signed_in`: the return path this page gives the gateway, so the session cookies it
 *   set become the dashboard's session (the expiry marker, web/src/api/client.ts).
 */

/** The query parameter naming a Google sign-in's outcome on /signin. */
export const GOOGLE_PARAM = "google";
export const GOOGLE_SIGNED_IN = "signed_in";
export const GOOGLE_LINK = "link";

export interface GoogleErrorMessage {
  title: string;
  description: string;
}

/** Every `?error=` the gateway sends back from a Google sign-in (its ERROR_PARAM and the start's own). */
export const GOOGLE_ERRORS: Readonly<Record<string, GoogleErrorMessage>> = {
  google_denied: {
    title: "Google sign-in was cancelled",
    description:
      "You did not allow Crafter to use your Google account. Choose the Google button again when you are ready.",
  },
  google_invalid: {
    title: "Google sign-in did not finish",
    description:
      "This sign-in expired, was already used, or was started in another browser. Please try again from this page.",
  },
  google_unverified: {
    title: "Google has not verified this email",
    description:
      "Your Google account's email is not verified by Google, so it cannot sign in to Crafter. Verify it with Google, or sign up with your email and a password.",
  },
  google_unavailable: {
    title: "Google could not be reached",
    description:
      "Signing in with Google is not possible at the moment. Please try again in a minute, or use your email and password.",
  },
  google_conflict: {
    title: "Google sign-in could not be completed",
    description:
      "Your Crafter account is already linked to another Google account, or another sign-up took this email at the same moment. Please try again, or sign in with your email and password.",
  },
  google_not_configured: {
    title: "Google sign-in is not available",
    description: "This server does not offer signing in with Google. Use your email and password.",
  },
  rate_limited: {
    title: "Too many sign-in attempts",
    description: "Please wait a minute before trying again.",
  },
};

const UNKNOWN: GoogleErrorMessage = {
  title: "Google sign-in did not work",
  description: "Please try again, or sign in with your email and password.",
};

/** The message for a returned `?error=` code: null when there is none, a general one for an unknown code. */
export function googleError(code: string | null | undefined): GoogleErrorMessage | null {
  if (!code) return null;
  return Object.hasOwn(GOOGLE_ERRORS, code) ? GOOGLE_ERRORS[code]! : UNKNOWN;
}

/**
 * The path the gateway sends the browser to after a successful Google sign-in: /signin, which takes
 * the session and moves on to `callbackUrl` (a safe same-site path, or null for /app).
 */
export function googleReturnPath(callbackUrl: string | null): string {
  const query = new URLSearchParams({ [GOOGLE_PARAM]: GOOGLE_SIGNED_IN });
  if (callbackUrl) query.set("callbackUrl", callbackUrl);
  return `/signin?${query.toString()}`;
}
