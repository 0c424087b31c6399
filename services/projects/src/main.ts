import { periodicJob, providerHttp, runService, shopifyStore } from "@crafter/kit";
import { createDelegations } from "./clients/delegations";
import { dnsLookup } from "./clients/dns";
import { businessTokens, googleBusinessApi } from "./clients/google-business";
import { productImages } from "./clients/media";
import { configSchema } from "./config";
import type { ProjectsDeps } from "./deps";
import { projectsConsumers } from "./events/consumers";
import { ProjectEvents } from "./events/publishers";
import { access, customDomainsAccess, membersAccess } from "./rpc/access";
import { customDomainsRoutes } from "./rpc/custom-domains.routes";
import { membersRoutes } from "./rpc/members.routes";
import { routes } from "./rpc/routes";
import { createStores } from "./store";
import { checkDueDomains } from "./usecases/custom-domains";
import { syncAllGoogleLocations } from "./usecases/google-business";

await runService({
  name: "projects",
  configSchema,
  async setup({ config, mongo, logger, kick, credentials }) {
    const stores = await createStores(mongo);
    const events = new ProjectEvents(config.CRAFTER_NAMESPACE);
    const delegations = createDelegations(config.AUTH_URL, config.RPC_TIMEOUT_MS, credentials);
    const moved = config.GOOGLE_BUSINESS_API_URL?.replace(/\/+$/, "");
    const google = {
      api: googleBusinessApi(
        providerHttp({
          timeoutMs: config.INTEGRATIONS_TIMEOUT_MS,
          pins: config.INTEGRATIONS_RESOLVE,
          maxBytes: 4 << 20,
        }),
        {
          accounts: moved ?? config.GOOGLE_BUSINESS_ACCOUNTS_URL.replace(/\/+$/, ""),
          information: moved ?? config.GOOGLE_BUSINESS_INFORMATION_URL.replace(/\/+$/, ""),
          reviews: moved ?? config.GOOGLE_BUSINESS_REVIEWS_URL.replace(/\/+$/, ""),
        },
      ),
      tokens: businessTokens(config.ACCOUNT_URL, config.RPC_TIMEOUT_MS, credentials),
    };
    const deps: ProjectsDeps = {
      stores,
      events,
      kick,
      logger,
      delegations,
      dns: dnsLookup({ servers: config.DNS_SERVERS, timeoutMs: config.DNS_TIMEOUT_MS }),
      customDomains: {
        target: config.CUSTOM_DOMAIN_TARGET,
        platformHosts: [new URL(config.PUBLIC_ORIGIN).hostname],
      },
      google,
      shopify: shopifyStore({
        accountUrl: config.ACCOUNT_URL,
        timeoutMs: config.RPC_TIMEOUT_MS,
        credentials,
        http: providerHttp({
          timeoutMs: config.INTEGRATIONS_TIMEOUT_MS,
          pins: config.INTEGRATIONS_RESOLVE,
          maxBytes: 4 << 20,
        }),
        adminOrigin: config.SHOPIFY_ADMIN_ORIGIN,
      }),
      productImages: productImages(config.MEDIA_URL, config.RPC_TIMEOUT_MS, credentials, logger),
      now: () => new Date(),
    };
    // Custom domains not verified yet are checked again until their records appear (and verified
    // ones now and then), in one replica per occurrence.
    const domainChecks = periodicJob({
      redisUrl: config.REDIS_URL,
      namespace: config.CRAFTER_NAMESPACE,
      logger,
      queue: "custom-domain-checks",
      everyMs: config.CUSTOM_DOMAIN_CHECK_MS,
      run: async () => {
        await checkDueDomains(deps, { recheckVerifiedMs: config.CUSTOM_DOMAIN_RECHECK_MS, limit: 100 });
      },
    });
    // Every chosen Google Business Profile location's reviews, once per period across replicas.
    const reviewsSync = periodicJob({
      redisUrl: config.REDIS_URL,
      namespace: config.CRAFTER_NAMESPACE,
      logger,
      queue: "google-reviews-sync",
      everyMs: config.GOOGLE_REVIEWS_SYNC_MS,
      run: async () => {
        const outcome = await syncAllGoogleLocations(deps);
        if (outcome.synced + outcome.failed > 0) logger.info(outcome, "Google reviews synced");
      },
    });
    return {
      async background() {
        await domainChecks.start();
        await reviewsSync.start();
      },
      routes: (router) => {
        routes(deps)(router);
        membersRoutes(deps)(router);
        customDomainsRoutes(deps)(router);
      },
      access: { ...access, ...membersAccess, ...customDomainsAccess },
      publishes: [events.topic],
      outbox: stores.outbox,
      consumers: projectsConsumers(config.CRAFTER_NAMESPACE, deps),
      onStop: async () => {
        await domainChecks.close();
        await reviewsSync.close();
      },
    };
  },
});
