import { runService, TOPICS, topicName } from "@crafter/kit";
import { configSchema } from "./config";
import { billingConsumers } from "./events/consumers";
import { routes } from "./rpc/routes";
import { createStores } from "./store";
import type { BillingDeps } from "./usecases/deps";

await runService({
  name: "billing",
  configSchema,
  async setup({ config, mongo, logger, relay }) {
    const stores = await createStores(mongo);
    const creditsTopic = topicName(config.CRAFTER_NAMESPACE, TOPICS.billingCredits);
    const deps: BillingDeps = {
      stores,
      creditsTopic,
      kick: () => relay()?.kick(),
      logger,
      now: () => new Date(),
    };
    return {
      routes: routes(deps),
      consumers: billingConsumers(config.CRAFTER_NAMESPACE, deps, {
        credits: config.FREE_CREDITS,
        days: config.FREE_CREDITS_DAYS,
      }),
      outbox: [stores.ledger.model],
      publishes: [creditsTopic],
    };
  },
});
