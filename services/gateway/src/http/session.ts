import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type AccessTokenVerifier, type AuthUser, appError } from "@crafter/kit";
import type { Session } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { parse as parseCookies } from "cookie";
import type { CookieOptions, Request, RequestHandler, Response } from "express";

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
 * Requires a valid access token (cookie or bearer); puts the user on `req.user`.
 * @throws UNAUTHENTICATED (401) when it is missing, expired or invalid.
 */
export function requireSession(verify: AccessTokenVerifier): RequestHandler {
  return async (req, _res, next) => {
    const token = accessTokenOf(req);
    if (!token) throw appError("UNAUTHENTICATED");
    try {
      req.user = await verify(token);
      req.accessToken = token;
    } catch {
      throw appError("UNAUTHENTICATED");
    }
    next();
  };
}

/** Call options that forward the request's access token to a service. */
export function asUser(req: Request): { headers: { authorization: string } } {
  return { headers: { authorization: `Bearer ${req.accessToken}` } };
}
