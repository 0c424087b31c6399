import { timestampDate } from "@bufbuild/protobuf/wkt";
import {
  type AccessTokenVerifier,
  API_KEY_PREFIX,
  type AuthUser,
  appError,
  unauthenticatedUnlessOutage,
} from "@crafter/kit";
import type { Session } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { parse as parseCookies } from "cookie";
import type { CookieOptions, Request, RequestHandler, Response } from "express";
import type { Clients } from "../clients";
import { requiredScope } from "./api-key-scopes";

/** Cookie names of the session contract (docs/api.md). */
export const ACCESS_COOKIE = "crafter_at";
export const REFRESH_COOKIE = "crafter_rt";

export interface SessionCookieOptions {
  secure: boolean;
}

/** Sets both session cookies (HttpOnly, Secure, SameSite=Lax); the refresh cookie only goes to /auth. */
export function setSessionCookies(res: Response, session: Session, options: SessionCookieOptions): void {
  const base: CookieOptions = { httpOnly: true, secure: options.secure, sameSite: "lax" };
  const accessExpires = session.accessExpiresAt ? timestampDate(session.accessExpiresAt) : new Date();
  const refreshExpires = session.refreshExpiresAt ? timestampDate(session.refreshExpiresAt) : new Date();
  res.cookie(ACCESS_COOKIE, session.accessToken, { ...base, path: "/", expires: accessExpires });
  res.cookie(REFRESH_COOKIE, session.refreshToken, { ...base, path: "/auth", expires: refreshExpires });
}

export function clearSessionCookies(res: Response, options: SessionCookieOptions): void {
  const base: CookieOptions = { httpOnly: true, secure: options.secure, sameSite: "lax" };
  res.clearCookie(ACCESS_COOKIE, { ...base, path: "/" });
  res.clearCookie(REFRESH_COOKIE, { ...base, path: "/auth" });
}

/** The result of sign-in and refresh: the user and the access token's expiry (ISO time). */
export function sessionResult(session: Session) {
  const user = session.user;
  return {
    user: {
      userId: user?.userId ?? "",
      email: user?.email ?? "",
      role: user?.role ?? "",
      email_verified: user?.emailVerified ?? false,
      clientId: user?.clientId ?? "",
      display_name: user?.displayName ?? "",
    },
    expiresAt: session.accessExpiresAt ? timestampDate(session.accessExpiresAt).toISOString() : null,
  };
}

declare global {
  namespace Express {
    interface Request {
      user?: AuthUser;
      accessToken?: string;
      /** Set when the request authenticated with a personal API key. */
      apiKey?: { id: string; scopes: string[] };
      /**
       * Set by http/read-ahead.ts: the denylist's answer for the access token and its user's view
       * version, from one Redis MGET, keyed by the token's *unverified* claims. The session check
       * uses `denied` only for the same token text, and the view cache uses `version` only for the
       * verified user of the same id, so a forged token costs one wasted read, never another
       * user's view. Both reject when Redis is unreachable.
       */
      readAhead?: { token: string; userId: string; denied: Promise<boolean>; version: Promise<string> };
    }
  }
}

/**
 * The access token of a call: `Authorization: Bearer` for API clients, else the session cookie.
 * @param cookieHeader the raw `Cookie` header.
 */
export function accessTokenFrom(
  authorization: string | null | undefined,
  cookieHeader: string | null | undefined,
): string | undefined {
  if (authorization?.startsWith("Bearer ")) return authorization.slice("Bearer ".length);
  return parseCookies(cookieHeader ?? "")[ACCESS_COOKIE];
}

export function accessTokenOf(req: Request): string | undefined {
  return accessTokenFrom(req.headers.authorization, req.headers.cookie);
}

/**
 * Requires a valid access token (cookie or bearer) of a verified user, or a personal API key
 * (`Authorization: Bearer crk_…`) whose scopes allow the request; puts the user on `req.user`.
 * A key is traded with auth for a short access token per request (audited, rate limited there).
 * @throws UNAUTHENTICATED (401) when the token or key is missing, expired, revoked or invalid;
 * EMAIL_NOT_VERIFIED (403) for an unverified user; FORBIDDEN (403) for a key without the scope or
 * on a route no key may use; RATE_LIMITED (429) over a key's limit; the outage itself (503
 * UNAVAILABLE in the envelope) when Redis or the auth service cannot be asked whether the token stands.
 */
export function requireSession(verify: AccessTokenVerifier, clients: Pick<Clients, "auth">): RequestHandler {
  return async (req, _res, next) => {
    const token = accessTokenOf(req);
    if (!token) throw appError("UNAUTHENTICATED");
    if (token.startsWith(API_KEY_PREFIX)) {
      const path = `${req.baseUrl}${req.path}`;
      const scope = requiredScope(req.method, path);
      if (!scope) throw appError("FORBIDDEN", "API keys cannot be used for this request.");
      const granted = await clients.auth.verifyApiKey({ secret: token, method: req.method, path, ip: req.ip ?? "" });
      if (!granted.scopes.includes(scope)) {
        throw appError("FORBIDDEN", `This API key does not have the "${scope}" scope.`);
      }
      req.accessToken = granted.accessToken;
      req.apiKey = { id: granted.keyId, scopes: granted.scopes };
    } else {
      req.accessToken = token;
    }
    let user: AuthUser;
    // The denylist read already started beside the view version (http/read-ahead.ts), if any.
    const denied = req.readAhead?.token === req.accessToken ? req.readAhead.denied : undefined;
    try {
      user = await verify(req.accessToken, { denied });
    } catch (error) {
      unauthenticatedUnlessOutage(error);
    }
    // An unverified account may only ask for its verification link again.
    if (!user.email_verified) throw appError("EMAIL_NOT_VERIFIED");
    req.user = user;
    next();
  };
}

/** Call options that forward the request's access token to a service. */
export function asUser(req: Request): { headers: { authorization: string } } {
  return { headers: { authorization: `Bearer ${req.accessToken}` } };
}
