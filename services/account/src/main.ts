import { bumpViewVersion, runService } from "@crafter/kit";
import { createCreditGrants } from "./clients/billing";
import { configSchema } from "./config";
import type { AccountDeps } from "./deps";
import { accountConsumers } from "./events/consumers";
import { access, adminAccess } from "./rpc/access";
import { adminRoutes } from "./rpc/admin-routes";
import { routes } from "./rpc/routes";
import { createStores } from "./store";
import { seedFlags } from "./usecases/seed-flags";

await runService({
  name: "account",
  configSchema,
  async setup({ config, mongo, logger, credentials, redis }) {
    const stores = await createStores(mongo, { flagCache: { cacheMs: config.FLAGS_CACHE_MS } });
    const grants = createCreditGrants(config.BILLING_URL, config.RPC_TIMEOUT_MS, credentials);
    const deps: AccountDeps = {
      stores,
      logger,
      now: () => new Date(),
      grants,
      changed: (userId) => bumpViewVersion(redis, userId),
    };
    await seedFlags(deps);
    return {
      routes: (router) => {
        routes(deps)(router);
        adminRoutes(deps)(router);
      },
      access: { ...access, ...adminAccess },
      consumers: accountConsumers(config.CRAFTER_NAMESPACE, deps),
    };
  },
});
