import { rpcAccess } from "@crafter/kit";
import { AccountService } from "@crafter/proto/crafter/account/v1/account_pb";
import { AdminService } from "@crafter/proto/crafter/account/v1/admin_pb";
import { IntegrationsService } from "@crafter/proto/crafter/account/v1/integrations_pb";

/** Who may call each AccountService RPC: the gateway, forwarding the user's access token (and notifications for GetFlags). */
export const access = rpcAccess(AccountService, {
  getUserInfo: ["user"],
  getSettings: ["user"],
  updateSettings: ["user"],
  // notifications reads a user's `sendgrid_integration` (the user is named in the request).
  getFlags: ["user", "service:notifications"],
  updateAccountInfo: ["user"],
});

/**
 * AdminService: a user token, whose role the use cases check against @crafter/roles (admins
 * only); the target user is `target_user_id`, so the access check's "own user" rule does not apply.
 */
export const adminAccess = rpcAccess(AdminService, {
  listUsers: ["user"],
  grantCredits: ["user"],
  getFlags: ["user"],
  setFlag: ["user"],
  listAudit: ["user"],
  getStats: ["user"],
});

/**
 * IntegrationsService: the project's owner or team members through the gateway (the use cases
 * check the role with projects); the OAuth callback from the gateway alone (the signed state is
 * the proof); access tokens to the services that act through a connection.
 */
export const integrationsAccess = rpcAccess(IntegrationsService, {
  listIntegrations: ["user"],
  startConnection: ["user"],
  completeConnection: ["service:gateway"],
  syncConnection: ["user"],
  receiveShopifyWebhook: ["service:gateway"],
  reportSync: ["service:projects", "service:contacts"],
  disconnect: ["user"],
  getAccessToken: ["service:auth", "service:projects", "service:contacts", "service:notifications"],
  connectApiKey: ["user"],
  listVerifiedSenders: ["user"],
  reportRefused: ["service:notifications"],
  getWebhookKey: ["service:notifications"],
});
