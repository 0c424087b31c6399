import { runService } from "@crafter/kit";
import { configSchema } from "./config";
import type { AccountDeps } from "./deps";
import { accountConsumers } from "./events/consumers";
import { access } from "./rpc/access";
import { routes } from "./rpc/routes";
import { createStores } from "./store";
import { seedFlags } from "./usecases/seed-flags";

await runService({
  name: "account",
  configSchema,
  async setup({ config, mongo, logger }) {
    const stores = await createStores(mongo, { flagCache: { cacheMs: config.FLAGS_CACHE_MS } });
    const deps: AccountDeps = { stores, logger, now: () => new Date() };
    await seedFlags(deps);
    return {
      routes: routes(deps),
      access,
      consumers: accountConsumers(config.CRAFTER_NAMESPACE, deps),
    };
  },
});
