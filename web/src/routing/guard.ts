/**
 * The route guard of spec section 4, as a pure function of the matched route's `access` (the route
 * table's, route-types.ts):
 *
 * 1. a not-logged-in visitor on an "app" route goes to /signin with the path as callbackUrl;
 * 2. a logged-in user with an unverified email on an "app" route goes to /signin;
 * 3. a verified user on a "guest" route (verify, signin, signup) goes to the callbackUrl if
 *    present, else /app.
 *
 * Everything else stays where it is. The callbackUrl is honoured only when it is a same-site
 * relative path (starts with one "/"); anything else is ignored.
 */

import type { SessionStatus } from "../api/types";
import type { Access } from "./route-types";

export type { SessionStatus };

export interface GuardInput {
  /** The access of the deepest matched route ("public" where nothing matched). */
  access: Access;
  pathname: string;
  /** The location's search string, with or without the leading "?". */
  search?: string;
  session: SessionStatus;
}

export const SIGNIN_PATH = "/signin";
export const SIGNUP_PATH = "/signup";
export const VERIFY_PATH = "/verify";
/** Where rule 3 sends a verified user without a callbackUrl (the app index redirects on). */
export const APP_ROOT = "/app";
/**
 * The "guest" pages (rule 3). A callbackUrl pointing at one would loop, so it is refused; the
 * route table's guest routes are these paths (routes.test.ts checks it).
 */
export const GUEST_PAGES: readonly string[] = [VERIFY_PATH, SIGNIN_PATH, SIGNUP_PATH];

/** Whether the guard may move a visitor away from a route of this access, so it waits for the session. */
export function guardWaits(access: Access): boolean {
  return access === "app" || access === "guest";
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
  if (GUEST_PAGES.includes(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Where the guard sends this visitor, or null to stay. */
export function guard({ access, pathname, search = "", session }: GuardInput): string | null {
  if (access === "app") {
    if (session === "anonymous") {
      const query = search && search !== "?" ? (search.startsWith("?") ? search : `?${search}`) : "";
      return `${SIGNIN_PATH}?callbackUrl=${encodeURIComponent(`${pathname}${query}`)}`;
    }
    if (session === "unverified") return SIGNIN_PATH;
    return null;
  }
  if (access === "guest" && session === "verified") {
    const params = new URLSearchParams(search);
    return safeCallbackUrl(params.get("callbackUrl")) ?? APP_ROOT;
  }
  return null;
}
