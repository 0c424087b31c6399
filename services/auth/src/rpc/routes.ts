import type { ConnectRouter, HandlerContext } from "@connectrpc/connect";
import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { trustedClientIp } from "../domain/client-ip";
import { createApiKey, listApiKeys, revokeApiKey, verifyApiKey } from "../usecases/api-keys";
import type { AuthDeps } from "../usecases/deps";
import { forgotPassword } from "../usecases/forgot-password";
import { refreshSession } from "../usecases/refresh-session";
import { resendVerification } from "../usecases/resend-verification";
import { resetPassword } from "../usecases/reset-password";
import { sessionUser } from "../usecases/session-user";
import { signIn } from "../usecases/sign-in";
import { signOut } from "../usecases/sign-out";
import { signUp } from "../usecases/sign-up";
import { verifyEmail } from "../usecases/verify-email";

/** Header by which the gateway proves itself (interim until the contract's service tokens). */
export const GATEWAY_HEADER = "x-crafter-gateway";

export function routes(deps: AuthDeps) {
  // A caller-supplied IP counts only from the gateway; every other caller shares one bucket.
  const ipOf = (ip: string, ctx: HandlerContext) =>
    trustedClientIp(ip, ctx.requestHeader.get(GATEWAY_HEADER), deps.config.GATEWAY_AUTH_SECRET);
  const userOf = (ctx: HandlerContext) => sessionUser(deps, ctx.requestHeader.get("authorization"));
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
        return { session: await signIn(deps, input) };
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
      async createApiKey(req, ctx) {
        const { userId } = await userOf(ctx);
        return createApiKey(deps, userId, { name: req.name, scopes: req.scopes });
      },
      async listApiKeys(_req, ctx) {
        const { userId } = await userOf(ctx);
        return { apiKeys: await listApiKeys(deps, userId) };
      },
      async revokeApiKey(req, ctx) {
        const { userId } = await userOf(ctx);
        await revokeApiKey(deps, userId, req.id);
        return {};
      },
      async verifyApiKey(req, ctx) {
        return verifyApiKey(deps, { secret: req.secret, method: req.method, path: req.path, ip: ipOf(req.ip, ctx) });
      },
    });
}
