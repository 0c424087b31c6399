import { rpcAccess } from "@crafter/kit";
import { AccountService } from "@crafter/proto/crafter/account/v1/account_pb";

/** Who may call each AccountService RPC: the gateway, forwarding the user's access token. */
export const access = rpcAccess(AccountService, {
  getUserInfo: ["user"],
  getSettings: ["user"],
  updateSettings: ["user"],
  getFlags: ["user"],
});
