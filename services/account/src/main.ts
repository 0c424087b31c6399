import { createHmac } from "node:crypto";
import { bumpViewVersion, providerHttp, runService } from "@crafter/kit";
import { createCreditGrants } from "./clients/billing";
import { projectRoles } from "./clients/projects";
import { configSchema } from "./config";
import type { AccountDeps } from "./deps";
import { configuredProviders, configuredShopify } from "./domain/providers";
import { accountConsumers } from "./events/consumers";
import { ConnectionEvents } from "./events/publishers";
import { access, adminAccess, integrationsAccess } from "./rpc/access";
import { adminRoutes } from "./rpc/admin-routes";
import { integrationsRoutes } from "./rpc/integrations.routes";
import { routes } from "./rpc/routes";
import { createStores } from "./store";
import { getFlags } from "./usecases/get-flags";
import { seedFlags } from "./usecases/seed-flags";

await runService({
  name: "account",
  configSchema,
  async setup({ config, mongo, logger, credentials, redis, kick }) {
    const stores = await createStores(mongo, {
      flagCache: { cacheMs: config.FLAGS_CACHE_MS },
      keys: config.SECRETS_KEYS,
    });
    const grants = createCreditGrants(config.BILLING_URL, config.RPC_TIMEOUT_MS, credentials);
    if (!config.SECRETS_KEYS) logger.warn("SECRETS_KEYS is not set: integrations cannot be connected");
    const deps: AccountDeps = {
      stores,
      logger,
      now: () => new Date(),
      grants,
      changed: (userId) => bumpViewVersion(redis, userId),
      integrations: {
        providers: configuredProviders(config as unknown as Record<string, string | undefined>),
        shopify: configuredShopify(config as unknown as Record<string, string | undefined>),
        webhookOrigin: config.INTEGRATIONS_WEBHOOK_ORIGIN ?? "",
        http: providerHttp({ timeoutMs: config.INTEGRATIONS_TIMEOUT_MS, pins: config.INTEGRATIONS_RESOLVE }),
        projects: projectRoles(config.PROJECTS_URL, config.RPC_TIMEOUT_MS),
        stateSecret:
          config.INTEGRATIONS_STATE_SECRET ??
          createHmac("sha256", config.SERVICE_SECRET ?? "")
            .update("crafter-integrations-state")
            .digest("base64url"),
        publicOrigin: config.PUBLIC_ORIGIN,
        attemptMs: config.INTEGRATIONS_ATTEMPT_MS,
        refreshMarginMs: config.INTEGRATIONS_REFRESH_MARGIN_MS,
        redis,
        events: new ConnectionEvents(config.CRAFTER_NAMESPACE),
        kick,
        sendgridBaseUrl: config.SENDGRID_BASE_URL,
        flagsOf: async (userId) => new Set((await getFlags({ stores }, { userId })).enabledFeatures),
      },
    };
    await seedFlags(deps);
    return {
      routes: (router) => {
        routes(deps)(router);
        adminRoutes(deps)(router);
        integrationsRoutes(deps)(router);
      },
      access: { ...access, ...adminAccess, ...integrationsAccess },
      consumers: accountConsumers(config.CRAFTER_NAMESPACE, deps),
      outbox: stores.outbox,
      publishes: [deps.integrations.events.topic],
    };
  },
});
