import { rpcAccess } from "@crafter/kit";
import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";

/**
 * Who may call each AuthService RPC. The sign-up family runs before a session exists (the gateway's
 * /auth routes; the gateway's service token, when present, makes the client IP it names trusted),
 * and IssueServiceToken checks its own client credentials. Personal API keys are managed by their
 * verified user; only the gateway trades a presented key for an access token.
 */
export const access = rpcAccess(AuthService, {
  signUp: ["public"],
  verifyEmail: ["public"],
  signIn: ["public"],
  refreshSession: ["public"],
  signOut: ["public"],
  forgotPassword: ["public"],
  resetPassword: ["public"],
  resendVerification: ["public"],
  getJwks: ["public"],
  issueServiceToken: ["public"],
  createApiKey: ["user"],
  listApiKeys: ["user"],
  revokeApiKey: ["user"],
  verifyApiKey: ["service:gateway"],
  listSessions: ["user"],
  revokeSession: ["user"],
  changePassword: ["user"],
  requestEmailChange: ["user"],
  confirmEmailChange: ["public"],
  // Team members: projects mints a member's token after checking the membership.
  issueDelegatedToken: ["service:projects"],
  // Google sign-in runs before a session exists (the gateway's /auth/google routes); identities are the caller's.
  getSignInOptions: ["public"],
  startGoogleSignIn: ["public"],
  completeGoogleSignIn: ["public"],
  listLinkedIdentities: ["user"],
  unlinkIdentity: ["user"],
});
