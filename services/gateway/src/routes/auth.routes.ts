import { type AccessTokenVerifier, appError, describeError } from "@crafter/kit";
import { Router } from "express";
import { z } from "zod";
import type { Clients } from "../clients";
import { ok, parseBody } from "../http/envelope";
import {
  accessTokenOf,
  clearSessionCookies,
  REFRESH_COOKIE,
  type SessionCookieOptions,
  sessionResult,
  setSessionCookies,
} from "../http/session";

const email = z.string({ error: "Email is required" });
const password = z.string({ error: "Password is required" });
const token = z.string({ error: "Token is required" }).min(1, "Token is required");

/** The client's address, from Express's trust-proxy setting (TRUST_PROXY) only. */
const clientIp = (req: { ip?: string }) => req.ip ?? "";

const SENT = "If the address can receive mail, a message is on its way. Please check your inbox.";

/** /auth: the session flows of spec section 7 and the cookie contract of DESIGN section 4. */
export function authRoutes(clients: Clients, verify: AccessTokenVerifier, cookies: SessionCookieOptions): Router {
  const router = Router();
  const refreshCookie = (req: { cookies?: Record<string, string> }) => req.cookies?.[REFRESH_COOKIE] ?? "";

  router.post("/signup", async (req, res) => {
    const body = parseBody(z.object({ email, password, displayName: z.string().max(80).optional() }), req.body);
    await clients.auth.signUp({
      email: body.email,
      password: body.password,
      displayName: body.displayName ?? "",
      ip: clientIp(req),
    });
    ok(res, { message: SENT });
  });

  router.post("/verify", async (req, res) => {
    const body = parseBody(z.object({ token }), req.body);
    const { email: verified } = await clients.auth.verifyEmail({ token: body.token });
    ok(res, { email: verified });
  });

  // Sends the verification link again; neutral whether or not the address has an unverified account.
  router.post("/verify/resend", async (req, res) => {
    const body = parseBody(z.object({ email }), req.body);
    await clients.auth.resendVerification({ email: body.email, ip: clientIp(req) });
    ok(res, { message: SENT });
  });

  router.post("/signin", async (req, res) => {
    const body = parseBody(z.object({ email, password }), req.body);
    const { session } = await clients.auth.signIn({
      email: body.email,
      password: body.password,
      ip: clientIp(req),
      userAgent: req.get("user-agent") ?? "",
    });
    if (!session) throw appError("InternalServerError");
    setSessionCookies(res, session, cookies);
    ok(res, sessionResult(session));
  });

  router.get("/check", async (req, res) => {
    const access = accessTokenOf(req);
    if (!access) throw appError("UNAUTHENTICATED");
    const user = await verify(access).catch(() => {
      throw appError("UNAUTHENTICATED");
    });
    ok(res, { user });
  });

  router.post("/token/refresh", async (req, res) => {
    try {
      const { session } = await clients.auth.refreshSession({
        refreshToken: refreshCookie(req),
        userAgent: req.get("user-agent") ?? "",
      });
      if (!session) throw appError("UNAUTHENTICATED");
      setSessionCookies(res, session, cookies);
      ok(res, sessionResult(session));
    } catch (error) {
      // Only a refused refresh ends the session; an outage must not log anyone out.
      if (describeError(error).status === 401) clearSessionCookies(res, cookies);
      throw error;
    }
  });

  router.post("/signout", async (req, res) => {
    await clients.auth.signOut({ refreshToken: refreshCookie(req) });
    clearSessionCookies(res, cookies);
    ok(res, {});
  });

  router.post("/password/forgot", async (req, res) => {
    const body = parseBody(z.object({ email }), req.body);
    await clients.auth.forgotPassword({ email: body.email, ip: clientIp(req) });
    ok(res, { message: SENT });
  });

  router.post("/password/reset", async (req, res) => {
    const body = parseBody(z.object({ token, password }), req.body);
    await clients.auth.resetPassword(body);
    ok(res, {});
  });

  return router;
}
