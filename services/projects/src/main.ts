import { runService } from "@crafter/kit";
import { createDelegations } from "./clients/delegations";
import { configSchema } from "./config";
import type { ProjectsDeps } from "./deps";
import { projectsConsumers } from "./events/consumers";
import { ProjectEvents } from "./events/publishers";
import { access, membersAccess } from "./rpc/access";
import { membersRoutes } from "./rpc/members.routes";
import { routes } from "./rpc/routes";
import { createStores } from "./store";

await runService({
  name: "projects",
  configSchema,
  async setup({ config, mongo, logger, kick, credentials }) {
    const stores = await createStores(mongo);
    const events = new ProjectEvents(config.CRAFTER_NAMESPACE);
    const delegations = createDelegations(config.AUTH_URL, config.RPC_TIMEOUT_MS, credentials);
    const deps: ProjectsDeps = { stores, events, kick, logger, delegations, now: () => new Date() };
    return {
      routes: (router) => {
        routes(deps)(router);
        membersRoutes(deps)(router);
      },
      access: { ...access, ...membersAccess },
      publishes: [events.topic],
      outbox: stores.outbox,
      consumers: projectsConsumers(config.CRAFTER_NAMESPACE, deps),
    };
  },
});
