import { runService } from "@crafter/kit";
import { configSchema } from "./config";
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
    await seedFlags(stores, logger);
    return {
      routes: (router) => routes(router, stores),
      access,
      consumers: accountConsumers(config.CRAFTER_NAMESPACE, stores),
    };
  },
});
