import { bumpViewVersion, runService, TOPICS, topicName } from "@crafter/kit";
import { configSchema } from "./config";
import type { BillingDeps } from "./deps";
import { billingConsumers } from "./events/consumers";
import { access, paymentsAccess, referralsAccess } from "./rpc/access";
import { routes } from "./rpc/routes";
import { createStores } from "./store";
import { KeyedQueue } from "./store/keyed-queue";
import { createStripe, usesLocalCheckout } from "./stripe/client";

await runService({
  name: "billing",
  configSchema,
  async setup({ config, mongo, redis, logger, kick }) {
    const stores = await createStores(mongo);
    const creditsTopic = topicName(config.CRAFTER_NAMESPACE, TOPICS.billingCredits);
    const subscriptionTopic = topicName(config.CRAFTER_NAMESPACE, TOPICS.billingSubscription);
    const usageTopic = topicName(config.CRAFTER_NAMESPACE, TOPICS.billingUsage);
    const deps: BillingDeps = {
      stores,
      writers: new KeyedQueue(),
      creditsTopic,
      usageTopic,
      kick,
      // The gateway caches userInfo per view version: a ledger write makes it stale at once. Redis
      // down must not fail a debit that is already written; the gateway's copies expire anyway.
      changed: (userId) =>
        bumpViewVersion(redis, userId).catch((error) => logger.warn({ err: error, userId }, "view version not bumped")),
      logger,
      now: () => new Date(),
      freeTier: { credits: config.FREE_CREDITS, days: config.FREE_CREDITS_DAYS },
      stripe: createStripe(config),
      stripeWebhookSecret: config.STRIPE_WEBHOOK_SECRET,
      localCheckout: usesLocalCheckout(config),
      priceIds: new Map(),
      subscriptionTopic,
    };
    return {
      routes: routes(deps),
      access: { ...access, ...paymentsAccess, ...referralsAccess },
      consumers: billingConsumers(config.CRAFTER_NAMESPACE, deps),
      outbox: [stores.ledger.model, stores.usage.limits, stores.payments.events],
      publishes: [creditsTopic, usageTopic, subscriptionTopic],
    };
  },
});
