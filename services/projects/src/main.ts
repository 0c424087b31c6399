import { periodicJob, runService } from "@crafter/kit";
import { createDelegations } from "./clients/delegations";
import { dnsLookup } from "./clients/dns";
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

await runService({
  name: "projects",
  configSchema,
  async setup({ config, mongo, logger, kick, credentials }) {
    const stores = await createStores(mongo);
    const events = new ProjectEvents(config.CRAFTER_NAMESPACE);
    const delegations = createDelegations(config.AUTH_URL, config.RPC_TIMEOUT_MS, credentials);
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
    return {
      async background() {
        await domainChecks.start();
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
      },
    };
  },
});
