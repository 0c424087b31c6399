import { runService } from "@crafter/kit";
import { configSchema } from "./config";
import { projectsConsumers } from "./events/consumers";
import { projectsTopics } from "./events/publishers";
import { access } from "./rpc/access";
import { routes } from "./rpc/routes";
import { createStores } from "./store";
import type { ProjectsDeps } from "./usecases/deps";

await runService({
  name: "projects",
  configSchema,
  async setup({ config, mongo, logger, relay }) {
    const stores = await createStores(mongo);
    const deps: ProjectsDeps = {
      ...stores,
      namespace: config.CRAFTER_NAMESPACE,
      kickRelay: () => relay()?.kick(),
      logger,
    };
    return {
      routes: (router) => routes(router, deps),
      access,
      publishes: projectsTopics(config.CRAFTER_NAMESPACE),
      outbox: stores.outboxModels,
      consumers: projectsConsumers(deps),
    };
  },
});
