import { rpcAccess } from "@crafter/kit";
import { AccountService } from "@crafter/proto/crafter/account/v1/account_pb";
import { AdminService } from "@crafter/proto/crafter/account/v1/admin_pb";

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
