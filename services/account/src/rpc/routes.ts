import type { JsonObject } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { requireUser } from "@crafter/kit";
import { AccountService } from "@crafter/proto/crafter/account/v1/account_pb";
import type { AccountStores } from "../store";
import { getFlags } from "../usecases/get-flags";
import { getSettings } from "../usecases/get-settings";
import { getUserInfo } from "../usecases/get-user-info";
import { updateSettings } from "../usecases/update-settings";

/** crafter.account.v1.AccountService: every call acts on the caller of the access token. */
export function routes(router: ConnectRouter, stores: AccountStores): void {
  router.service(AccountService, {
    async getUserInfo(_req, ctx) {
      return { userInfo: await getUserInfo(stores, requireUser(ctx)) };
    },
    async getSettings(_req, ctx) {
      return { settings: (await getSettings(stores, requireUser(ctx).userId)) as JsonObject };
    },
    async updateSettings(req, ctx) {
      const { userId } = requireUser(ctx);
      return { settings: (await updateSettings(stores, userId, req.settings ?? {})) as JsonObject };
    },
    async getFlags(_req, ctx) {
      return getFlags(stores, requireUser(ctx).userId);
    },
  });
}
