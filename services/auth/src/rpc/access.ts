import { rpcAccess } from "@crafter/kit";
import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";

/**
 * Who may call each AuthService RPC. Every one runs before a session exists (the gateway's /auth
 * routes), and IssueServiceToken checks its own client credentials.
 */
export const access = rpcAccess(AuthService, {
  signUp: ["public"],
  verifyEmail: ["public"],
  signIn: ["public"],
  refreshSession: ["public"],
  signOut: ["public"],
  forgotPassword: ["public"],
  resetPassword: ["public"],
  getJwks: ["public"],
  issueServiceToken: ["public"],
});
