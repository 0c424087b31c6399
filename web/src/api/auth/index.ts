import useSWR from "swr";
import { apiKey, fetcher, http } from "../api";
import type { ResultOf } from "../contract";

/**
 * Sign-in methods besides a password (the auth service's Google sign-in through the gateway),
 * typed by the gateway's OpenAPI document: whether Google is offered, where the browser starts a
 * Google sign-in, and the signed-in user's linked identities. Keys are the URLs they are read from.
 */
export type SignInOptions = ResultOf<"/auth/options", "get">;
export type LinkedIdentities = ResultOf<"/api/user/identities", "get">;
export type LinkedIdentity = LinkedIdentities["identities"][number];
export type GoogleIntent = "signin" | "signup";

export const authKeys = {
  options: () => apiKey("/auth/options"),
  identities: () => apiKey("/api/user/identities"),
};

/** Whether this server offers Sign in with Google (public: the sign-in and sign-up pages read it). */
export function useSignInOptions() {
  return useSWR<SignInOptions>(authKeys.options(), fetcher, { revalidateOnFocus: false });
}

/** The signed-in user's linked identities, whether the account has a password, and whether Google is offered. */
export function useLinkedIdentities() {
  return useSWR<LinkedIdentities>(authKeys.identities(), fetcher);
}

/** Reads the linked identities once (after a password sign-in that may have linked Google). */
export function linkedIdentities() {
  return http.get("/api/user/identities");
}

/**
 * Unlinks a sign-in identity.
 * @throws ApiError 409 CONFLICT when it is the account's only way in (no password yet); 404 when not linked.
 */
export function unlinkIdentity(provider: string) {
  return http.del("/api/user/identities/{provider}", { path: { provider } });
}

/**
 * Where the browser goes to sign in (or up) with Google: the gateway redirects to Google and, once
 * Google sends the person back, to `returnTo` (a path of this site) with the session cookies set, or
 * to /signin?error=<code>. A full navigation, not a fetch: it leaves for Google's pages.
 */
export function googleStartUrl(intent: GoogleIntent, returnTo: string, ref?: string): string {
  return apiKey("/auth/google/start", { query: { intent, callbackUrl: returnTo, ref } });
}
