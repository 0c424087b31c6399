import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";
import type { AuthDeps } from "../deps";
import { forgotPassword } from "../usecases/forgot-password";
import { issueServiceToken } from "../usecases/issue-service-token";
import { refreshSession } from "../usecases/refresh-session";
import { resetPassword } from "../usecases/reset-password";
import { signIn } from "../usecases/sign-in";
import { signOut } from "../usecases/sign-out";
import { signUp } from "../usecases/sign-up";
import { verifyEmail } from "../usecases/verify-email";

/** crafter.auth.v1.AuthService: public RPCs (no session exists yet), so no caller is read. */
export function routes(deps: AuthDeps): (router: ConnectRouter) => void {
  return (router: ConnectRouter) =>
    router.service(AuthService, {
      async signUp(req) {
        await signUp(deps, req);
        return {};
      },
      async verifyEmail(req) {
        return { email: await verifyEmail(deps, req.token) };
      },
      async signIn(req) {
        return { session: await signIn(deps, req) };
      },
      async refreshSession(req) {
        return { session: await refreshSession(deps, req.refreshToken) };
      },
      async signOut(req) {
        await signOut(deps, req.refreshToken);
        return {};
      },
      async forgotPassword(req) {
        await forgotPassword(deps, req.email);
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
    });
}
