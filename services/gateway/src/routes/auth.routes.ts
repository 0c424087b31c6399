import { appError, describeError, unauthenticatedUnlessOutage } from "@crafter/kit";
import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { emailAddress, newPassword, sessionSchema, sessionUserSchema } from "../http/schemas";
import { accessTokenOf, clearSessionCookies, REFRESH_COOKIE, sessionResult, setSessionCookies } from "../http/session";
import type { RouteDeps } from "./deps";
import { GOOGLE_LINK_COOKIE } from "./google-signin.routes";

const email = z.string({ error: "Email is required" }).max(320, "Email is too long");
const password = z.string({ error: "Password is required" }).max(1024, "Password is too long");
const token = z.string({ error: "Token is required" }).min(1, "Token is required").max(512, "Token is too long");
const message = z.object({ message: z.string() });
const empty = z.object({});

/** The client's address, from Express's trust-proxy setting (TRUST_PROXY) only. */
const clientIp = (req: { ip?: string }) => req.ip ?? "";

const SENT = "If the address can receive mail, a message is on its way. Please check your inbox.";

/** /auth: the session flows of spec section 7 and the cookie contract of DESIGN section 4. */

/** /auth/check's user: the access token's claims of spec section 3 (zod drops any other key). */
const checkedUserSchema = z.object({ ...sessionUserSchema.shape, iat: z.number(), exp: z.number() });
export function authRoutes({ clients, verify, cookies }: RouteDeps): RouteDef[] {
  const refreshCookie = (req: { cookies?: Record<string, string> }) => req.cookies?.[REFRESH_COOKIE] ?? "";
  return [
    defineRoute({
      method: "post",
      path: "/auth/signup",
      tag: "auth",
      summary: "Sign up; the answer is the same for new and existing addresses",
      auth: "public",
      body: z.object({
        email: emailAddress,
        password: newPassword,
        displayName: z.string().max(80).optional(),
        /** The `ref` of a referral link (`/signup?ref=<code>`); an unknown one is ignored. */
        ref: z.string({ error: "ref must be text" }).max(64, "ref is too long").optional(),
      }),
      response: message,
      errors: ["RATE_LIMITED"],
      handler: async ({ req, body }) => {
        await clients.auth.signUp({
          email: body.email,
          password: body.password,
          displayName: body.displayName ?? "",
          ip: clientIp(req),
          referralCode: body.ref?.trim().toLowerCase() ?? "",
        });
        return { message: SENT };
      },
    }),
    defineRoute({
      method: "post",
      path: "/auth/verify",
      tag: "auth",
      summary: "Verify an email address with the token of the emailed link",
      auth: "public",
      body: z.object({ token }),
      response: z.object({ email: z.string() }),
      errors: ["InvalidToken"],
      handler: async ({ body }) => ({ email: (await clients.auth.verifyEmail({ token: body.token })).email }),
    }),
    defineRoute({
      method: "post",
      path: "/auth/verify/resend",
      tag: "auth",
      summary: "Send the verification link again; the answer is the same whether or not the address waits for one",
      auth: "public",
      body: z.object({ email: emailAddress }),
      response: message,
      errors: ["RATE_LIMITED"],
      handler: async ({ req, body }) => {
        await clients.auth.resendVerification({ email: body.email, ip: clientIp(req) });
        return { message: SENT };
      },
    }),
    defineRoute({
      method: "post",
      path: "/auth/signin",
      tag: "auth",
      summary: "Sign in; sets the session cookies (and links a Google identity waiting for this account)",
      auth: "public",
      body: z.object({ email, password }),
      response: sessionSchema,
      errors: ["InvalidCredentials", "RATE_LIMITED"],
      handler: async ({ req, res, body }) => {
        const { session } = await clients.auth.signIn({
          email: body.email,
          password: body.password,
          ip: clientIp(req),
          userAgent: req.get("user-agent") ?? "",
          googleLinkToken: req.cookies?.[GOOGLE_LINK_COOKIE] ?? "",
        });
        if (!session) throw appError("InternalServerError");
        setSessionCookies(res, session, cookies);
        // The pending link was used (linked, or dropped by another account's sign-in).
        if (req.cookies?.[GOOGLE_LINK_COOKIE])
          res.clearCookie(GOOGLE_LINK_COOKIE, {
            httpOnly: true,
            secure: cookies.secure,
            sameSite: "lax",
            path: "/auth",
          });
        return sessionResult(session);
      },
    }),
    defineRoute({
      method: "get",
      path: "/auth/check",
      tag: "auth",
      summary: "The user of the access token (cookie or bearer)",
      auth: "public",
      response: z.object({ user: checkedUserSchema }),
      errors: ["UNAUTHENTICATED"],
      handler: async ({ req }) => {
        const access = accessTokenOf(req);
        if (!access) throw appError("UNAUTHENTICATED");
        const user = await verify(access).catch(unauthenticatedUnlessOutage);
        // The spec's Auth user only: the verifier's other claims (a team member's delegation) stay inside.
        return { user: checkedUserSchema.parse(user) };
      },
    }),
    defineRoute({
      method: "post",
      path: "/auth/token/refresh",
      tag: "auth",
      summary: "Rotate the session cookies with the refresh cookie",
      auth: "public",
      body: empty,
      response: sessionSchema,
      errors: ["UNAUTHENTICATED"],
      handler: async ({ req, res }) => {
        try {
          const { session } = await clients.auth.refreshSession({
            refreshToken: refreshCookie(req),
            userAgent: req.get("user-agent") ?? "",
          });
          if (!session) throw appError("UNAUTHENTICATED");
          setSessionCookies(res, session, cookies);
          return sessionResult(session);
        } catch (error) {
          // Only a refused refresh ends the session; an outage must not log anyone out.
          if (describeError(error).status === 401) clearSessionCookies(res, cookies);
          throw error;
        }
      },
    }),
    defineRoute({
      method: "post",
      path: "/auth/signout",
      tag: "auth",
      summary: "Sign out: clears the cookies and revokes the refresh family",
      auth: "public",
      body: empty,
      response: empty,
      handler: async ({ req, res }) => {
        await clients.auth.signOut({ refreshToken: refreshCookie(req) });
        clearSessionCookies(res, cookies);
        return {};
      },
    }),
    defineRoute({
      method: "post",
      path: "/auth/password/forgot",
      tag: "auth",
      summary: "Email a password reset link; the answer is the same for known and unknown addresses",
      auth: "public",
      body: z.object({ email: emailAddress }),
      response: message,
      errors: ["RATE_LIMITED"],
      handler: async ({ req, body }) => {
        await clients.auth.forgotPassword({ email: body.email, ip: clientIp(req) });
        return { message: SENT };
      },
    }),
    defineRoute({
      method: "post",
      path: "/auth/password/reset",
      tag: "auth",
      summary: "Set a new password with the token of the emailed link",
      auth: "public",
      body: z.object({ token, password: newPassword }),
      response: empty,
      errors: ["InvalidToken"],
      handler: async ({ body }) => {
        await clients.auth.resetPassword(body);
        return {};
      },
    }),
  ];
}
