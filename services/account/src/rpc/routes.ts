import type { JsonObject } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { appError, callerOf, requireUser } from "@crafter/kit";
import { AccountService } from "@crafter/proto/crafter/account/v1/account_pb";
import type { AccountDeps } from "../deps";
import { getFlags } from "../usecases/get-flags";
import { getSettings } from "../usecases/get-settings";
import { getUserInfo } from "../usecases/get-user-info";
import { updateAccountInfo } from "../usecases/update-account-info";
import { updateSettings } from "../usecases/update-settings";

/** crafter.account.v1.AccountService: every call acts on the caller of the access token. */
export function routes(deps: AccountDeps): (router: ConnectRouter) => void {
  return (router) =>
    router.service(AccountService, {
      async getUserInfo(_req, ctx) {
        // The token's claims seed an account whose UserRegistered event is not consumed yet.
        const claims = requireUser(ctx);
        const userInfo = await getUserInfo(deps, callerOf(ctx), {
          email: claims.email,
          displayName: claims.display_name,
          emailVerified: claims.email_verified,
        });
        return { userInfo };
      },
      async getSettings(_req, ctx) {
        return { settings: (await getSettings(deps, callerOf(ctx))) as JsonObject };
      },
      async updateSettings(req, ctx) {
        return { settings: (await updateSettings(deps, callerOf(ctx), req.settings ?? {})) as JsonObject };
      },
      async getFlags(req, ctx) {
        const caller = callerOf(ctx);
        // A service names the user (the access check allowed only notifications); a user reads their own.
        if (caller.service !== undefined) {
          if (!req.userId) throw appError("CR_ERR_BAD_REQUEST", "user_id is required", { userId: "Required" });
          return getFlags(deps, { ...caller, userId: req.userId });
        }
        return getFlags(deps, caller);
      },
      async updateAccountInfo(req, ctx) {
        return { userInfo: await updateAccountInfo(deps, callerOf(ctx), req) };
      },
    });
}
