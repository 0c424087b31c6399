import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter, HandlerContext } from "@connectrpc/connect";
import { type Caller, callerOf, kService } from "@crafter/kit";
import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";
import type { AuthDeps } from "../deps";
import { trustedClientIp } from "../domain/client-ip";
import { createApiKey, listApiKeys, revokeApiKey, verifyApiKey } from "../usecases/api-keys";
import { confirmEmailChange, requestEmailChange } from "../usecases/change-email";
import { forgotPassword } from "../usecases/forgot-password";
import {
  completeGoogleSignIn,
  linkPendingGoogle,
  listLinkedIdentities,
  startGoogleSignIn,
  unlinkIdentity,
} from "../usecases/google-sign-in";
import { issueDelegatedToken } from "../usecases/issue-delegated-token";
import { issueServiceToken } from "../usecases/issue-service-token";
import { refreshSession } from "../usecases/refresh-session";
import { resendVerification } from "../usecases/resend-verification";
import { resetPassword } from "../usecases/reset-password";
import { sessionUser } from "../usecases/session-user";
import { changePassword, listSessions, revokeSession } from "../usecases/sessions";
import { signIn } from "../usecases/sign-in";
import { signOut } from "../usecases/sign-out";
import { signUp } from "../usecases/sign-up";
import { verifyEmail } from "../usecases/verify-email";

/**
 * crafter.auth.v1.AuthService. The sign-up family runs before any session (public, see access.ts);
 * API key management needs a user's browser session, VerifyApiKey the gateway's service token.
 */
export function routes(deps: AuthDeps): (router: ConnectRouter) => void {
  // A caller-supplied IP counts only from the gateway (its verified service token); every other
  // caller shares one bucket.
  const ipOf = (ip: string, ctx: HandlerContext) => trustedClientIp(ip, ctx.values.get(kService));
  // The access interceptor verified the user; sessionUser also refuses a token traded for an API key.
  const keyOwnerOf = async (ctx: HandlerContext): Promise<Caller> => {
    const caller = callerOf(ctx);
    await sessionUser(deps, ctx.requestHeader.get("authorization"));
    return caller;
  };
  // Sessions and passwords are a browser session's business: the token's `sid` names it.
  const sessionOf = (ctx: HandlerContext) => {
    callerOf(ctx);
    return sessionUser(deps, ctx.requestHeader.get("authorization"));
  };
  return (router: ConnectRouter) =>
    router.service(AuthService, {
      async signUp(req, ctx) {
        await signUp(deps, { ...req, ip: ipOf(req.ip, ctx) });
        return {};
      },
      async verifyEmail(req) {
        return { email: await verifyEmail(deps, req.token) };
      },
      async resendVerification(req, ctx) {
        await resendVerification(deps, req.email, ipOf(req.ip, ctx));
        return {};
      },
      async signIn(req, ctx) {
        const input = { email: req.email, password: req.password, ip: ipOf(req.ip, ctx), userAgent: req.userAgent };
        const session = await signIn(deps, input);
        const googleLinked = await linkPendingGoogle(deps, session.user?.userId ?? "", req.googleLinkToken);
        return { session, googleLinked };
      },
      async refreshSession(req) {
        return { session: await refreshSession(deps, req.refreshToken, req.userAgent) };
      },
      async signOut(req) {
        await signOut(deps, req.refreshToken);
        return {};
      },
      async forgotPassword(req, ctx) {
        await forgotPassword(deps, req.email, ipOf(req.ip, ctx));
        return {};
      },
      async resetPassword(req) {
        await resetPassword(deps, req.token, req.password);
        return {};
      },
      getJwks() {
        return { jwksJson: JSON.stringify(deps.keys.jwks) };
      },
      async issueServiceToken(req) {
        const { token, expiresAt } = await issueServiceToken(deps, req);
        return { token, expiresAt: timestampFromDate(expiresAt) };
      },
      async issueDelegatedToken(req) {
        const { token, expiresAt } = await issueDelegatedToken(deps, req);
        return { accessToken: token, expiresAt: timestampFromDate(expiresAt) };
      },
      async createApiKey(req, ctx) {
        return createApiKey(deps, await keyOwnerOf(ctx), { name: req.name, scopes: req.scopes });
      },
      async listApiKeys(_req, ctx) {
        return { apiKeys: await listApiKeys(deps, await keyOwnerOf(ctx)) };
      },
      async revokeApiKey(req, ctx) {
        await revokeApiKey(deps, await keyOwnerOf(ctx), req.id);
        return {};
      },
      async listSessions(_req, ctx) {
        const sessions = await listSessions(deps, await sessionOf(ctx));
        return {
          sessions: sessions.map((session) => ({
            id: session.id,
            deviceKind: session.kind,
            browser: session.browser,
            os: session.os,
            place: session.place,
            createdAt: timestampFromDate(session.createdAt),
            lastUsedAt: timestampFromDate(session.lastUsedAt),
            current: session.current,
          })),
        };
      },
      async revokeSession(req, ctx) {
        await revokeSession(deps, await sessionOf(ctx), req.id);
        return {};
      },
      async changePassword(req, ctx) {
        const input = { currentPassword: req.currentPassword, newPassword: req.newPassword };
        return { endedSessions: await changePassword(deps, await sessionOf(ctx), input) };
      },
      async requestEmailChange(req, ctx) {
        const input = { newEmail: req.newEmail, currentPassword: req.currentPassword };
        return { newEmail: await requestEmailChange(deps, await sessionOf(ctx), input) };
      },
      async confirmEmailChange(req) {
        return { email: await confirmEmailChange(deps, req.token) };
      },
      getSignInOptions() {
        return { google: deps.google !== undefined };
      },
      async startGoogleSignIn(req) {
        const started = await startGoogleSignIn(deps, {
          intent: req.intent,
          returnTo: req.returnTo,
          referralCode: req.referralCode,
        });
        return {
          authorizationUrl: started.url,
          browserBinding: started.binding,
          expiresAt: timestampFromDate(started.expiresAt),
        };
      },
      async completeGoogleSignIn(req, ctx) {
        const result = await completeGoogleSignIn(deps, {
          callbackQuery: req.callbackQuery,
          binding: req.browserBinding,
          ip: ipOf(req.ip, ctx),
          userAgent: req.userAgent,
        });
        return {
          ...(result.session ? { session: result.session } : {}),
          ...(result.pendingLink
            ? {
                linkToken: result.pendingLink.token,
                linkEmail: result.pendingLink.email,
                linkExpiresAt: timestampFromDate(result.pendingLink.expiresAt),
              }
            : {}),
          returnTo: result.returnTo,
          created: result.created,
        };
      },
      async listLinkedIdentities(_req, ctx) {
        const listed = await listLinkedIdentities(deps, (await sessionOf(ctx)).userId);
        return {
          ...listed,
          identities: listed.identities.map((identity) => ({
            ...identity,
            linkedAt: timestampFromDate(identity.linkedAt),
          })),
        };
      },
      async unlinkIdentity(req, ctx) {
        await unlinkIdentity(deps, (await sessionOf(ctx)).userId, req.provider);
        return {};
      },
      async verifyApiKey(req, ctx) {
        return verifyApiKey(deps, { secret: req.secret, method: req.method, path: req.path, ip: ipOf(req.ip, ctx) });
      },
    });
}
