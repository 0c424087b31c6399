import { runService, TOPICS, topicName } from "@crafter/kit";
import { configSchema } from "./config";
import { billingConsumers } from "./events/consumers";
import { access } from "./rpc/access";
import { routes } from "./rpc/routes";
import { createStores } from "./store";
import type { BillingDeps } from "./usecases/deps";
import { KeyedQueue } from "./usecases/keyed-queue";

await runService({
  name: "billing",
  configSchema,
  async setup({ config, mongo, logger, kick }) {
    const stores = await createStores(mongo);
    const creditsTopic = topicName(config.CRAFTER_NAMESPACE, TOPICS.billingCredits);
    const deps: BillingDeps = {
      stores,
      writers: new KeyedQueue(),
      creditsTopic,
      kick,
      logger,
      now: () => new Date(),
      freeTier: { credits: config.FREE_CREDITS, days: config.FREE_CREDITS_DAYS },
    };
    return {
      routes: routes(deps),
      access,
      consumers: billingConsumers(config.CRAFTER_NAMESPACE, deps, deps.freeTier),
      outbox: [stores.ledger.model],
      publishes: [creditsTopic],
    };
  },
});
