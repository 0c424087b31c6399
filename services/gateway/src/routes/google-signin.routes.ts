import { timestampDate } from "@bufbuild/protobuf/wkt";
import { describeError } from "@crafter/kit";
import type { CookieOptions, Request } from "express";
import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import { text } from "../http/rest-bindings";
import { setSessionCookies } from "../http/session";
import type { RouteDeps } from "./deps";

// Sign in and sign up with Google (OpenID Connect, run by the auth service). Both routes redirect
// the browser, so they are written here: the start sends it to Google, the callback back into the app.

/** The browser binding of a started Google sign-in: only the browser that started it may finish it. */
export const GOOGLE_FLOW_COOKIE = "crafter_gflow";
/** A Google identity waiting for its account's password sign-in (sent to /auth/signin). */
export const GOOGLE_LINK_COOKIE = "crafter_glink";

/** What /signin shows for each `?error=` of a failed Google sign-in (web/src/features/auth/google-sign-in.ts, whose test checks each code has one). */
const ERROR_PARAM: Readonly<Record<string, string>> = {
  InvalidToken: "google_invalid",
  EMAIL_NOT_VERIFIED: "google_unverified",
  UNAVAILABLE: "google_unavailable",
  CONFLICT: "google_conflict",
  RATE_LIMITED: "rate_limited",
};

const clientIp = (req: { ip?: string }) => req.ip ?? "";
/** The raw query string of the request ("" when none). */
const rawQuery = (req: Request) => {
  const at = req.originalUrl.indexOf("?");
  return at < 0 ? "" : req.originalUrl.slice(at + 1);
};
const location = z.object({
  location: z.string().meta({ description: "Where the browser goes: the Location header." }),
});

export function googleSignInRoutes({ clients, cookies }: RouteDeps): RouteDef[] {
  const base: CookieOptions = { httpOnly: true, secure: cookies.secure, sameSite: "lax" };
  return [
    defineRoute({
      method: "get",
      path: "/auth/options",
      tag: "auth",
      summary: "What sign-in offers besides a password",
      description: "`google`: Sign in and Sign up with Google are offered (this server has a Google client).",
      auth: "public",
      response: z.object({ google: z.boolean() }),
      handler: async () => ({ google: (await clients.auth.getSignInOptions({})).google }),
    }),
    defineRoute({
      method: "get",
      path: "/auth/google/start",
      tag: "auth",
      summary: "Start signing in (or up) with Google: redirects to Google",
      description:
        "Redirects (302) to Google's authorization endpoint (code flow, PKCE S256, state, nonce) and sets an HttpOnly cookie binding the attempt to this browser; when Google sign-in is not configured or Google cannot be reached, to /signin?error=<code>.",
      auth: "public",
      query: z.object({
        intent: z.enum(["signin", "signup"]).optional(),
        callbackUrl: text("callbackUrl", 512).optional(),
        ref: text("ref", 64).optional(),
      }),
      response: location,
      status: 302,
      handler: async ({ query, res }) => {
        let to: string;
        try {
          const started = await clients.auth.startGoogleSignIn({
            intent: query.intent ?? "signin",
            returnTo: query.callbackUrl ?? "",
            referralCode: query.ref?.trim().toLowerCase() ?? "",
          });
          const expires = started.expiresAt ? timestampDate(started.expiresAt) : new Date(Date.now() + 600_000);
          res.cookie(GOOGLE_FLOW_COOKIE, started.browserBinding, { ...base, path: "/auth/google", expires });
          to = started.authorizationUrl;
        } catch (error) {
          const code = describeError(error).code;
          to = `/${query.intent === "signup" ? "signup" : "signin"}?error=${code === "CONFLICT" ? "google_not_configured" : (ERROR_PARAM[code] ?? "google_unavailable")}`;
        }
        res.setHeader("cache-control", "no-store");
        res.setHeader("location", to);
        return { location: to };
      },
    }),
    defineRoute({
      method: "get",
      path: "/auth/google/callback",
      tag: "auth",
      summary: "Google's OpenID Connect callback: signs in and redirects into the app",
      description:
        "Redirects (302) to the path the sign-in started from (session cookies set, as a password sign-in sets them); to /signin?google=link&email=… when the email belongs to an account that must first sign in with its password to link Google; or to /signin?error=<code> (google_denied, google_invalid, google_unverified, google_unavailable, google_conflict, rate_limited).",
      auth: "public",
      query: z.object({
        code: text("code", 2048).optional(),
        state: text("state", 2048).optional(),
        iss: text("iss", 2048).optional(),
        scope: text("scope", 2048).optional(),
        error: text("error", 100).optional(),
        error_description: text("error_description", 1000).optional(),
      }),
      response: location,
      status: 302,
      handler: async ({ req, query, res }) => {
        const binding = req.cookies?.[GOOGLE_FLOW_COOKIE] ?? "";
        res.clearCookie(GOOGLE_FLOW_COOKIE, { ...base, path: "/auth/google" });
        let to: string;
        if (query.error) {
          to = `/signin?error=${query.error === "access_denied" ? "google_denied" : "google_invalid"}`;
        } else {
          try {
            const result = await clients.auth.completeGoogleSignIn({
              callbackQuery: rawQuery(req).slice(0, 8192),
              browserBinding: binding,
              ip: clientIp(req),
              userAgent: req.get("user-agent") ?? "",
            });
            if (result.session) {
              setSessionCookies(res, result.session, cookies);
              to = result.returnTo.startsWith("/") && !result.returnTo.startsWith("//") ? result.returnTo : "/app";
            } else {
              const expires = result.linkExpiresAt ? timestampDate(result.linkExpiresAt) : new Date();
              res.cookie(GOOGLE_LINK_COOKIE, result.linkToken, { ...base, path: "/auth", expires });
              to = `/signin?google=link&email=${encodeURIComponent(result.linkEmail)}`;
            }
          } catch (error) {
            to = `/signin?error=${ERROR_PARAM[describeError(error).code] ?? "google_unavailable"}`;
          }
        }
        res.setHeader("cache-control", "no-store");
        res.setHeader("location", to);
        return { location: to };
      },
    }),
  ];
}
