/**
 * The route guard of spec section 4, as a pure function:
 *
 * 1. a not-logged-in visitor on an /app path goes to /signin with the path as callbackUrl;
 * 2. a logged-in user with an unverified email on /app goes to /signin;
 * 3. a verified user on the verify, signin or signup page goes to the callbackUrl if present,
 *    else /app.
 *
 * Everything else stays where it is. The callbackUrl is honoured only when it is a same-site
 * relative path (starts with one "/"); anything else is ignored.
 */

import type { SessionStatus } from "../api/types";

export type { SessionStatus };
export interface GuardInput {
  pathname: string;
  /** The location's search string, with or without the leading "?". */
  search?: string;
  session: SessionStatus;
}

export const SIGNIN_PATH = "/signin";
export const APP_HOME = "/app";
/** The pages a verified user is sent away from (rule 3). */
export const AUTH_ENTRY_PAGES: readonly string[] = ["/verify", "/signin", "/signup"];

export function isAppPath(pathname: string): boolean {
  return pathname === "/app" || pathname.startsWith("/app/") || pathname === "/_app";
}

const ORIGIN = "https://crafter.invalid";

/**
 * Returns the callbackUrl when it is safe to navigate to, else null: a relative path starting with
 * a single "/" (not "//" nor "/\", which browsers read as another host), without control
 * characters, resolving to this site, and not one of the auth entry pages (which would loop).
 */
export function safeCallbackUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== ORIGIN) return null;
  if (AUTH_ENTRY_PAGES.includes(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Where the guard sends this visitor, or null to stay. */
export function guard({ pathname, search = "", session }: GuardInput): string | null {
  if (isAppPath(pathname)) {
    if (session === "anonymous") {
      const query = search && search !== "?" ? (search.startsWith("?") ? search : `?${search}`) : "";
      return `${SIGNIN_PATH}?callbackUrl=${encodeURIComponent(`${pathname}${query}`)}`;
    }
    if (session === "unverified") return SIGNIN_PATH;
    return null;
  }
  if (session === "verified" && AUTH_ENTRY_PAGES.includes(pathname)) {
    const params = new URLSearchParams(search);
    return safeCallbackUrl(params.get("callbackUrl")) ?? APP_HOME;
  }
  return null;
}
