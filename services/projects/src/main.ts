import { runService } from "@crafter/kit";
import { configSchema } from "./config";
import type { ProjectsDeps } from "./deps";
import { projectsConsumers } from "./events/consumers";
import { ProjectEvents } from "./events/publishers";
import { access } from "./rpc/access";
import { routes } from "./rpc/routes";
import { createStores } from "./store";

await runService({
  name: "projects",
  configSchema,
  async setup({ config, mongo, logger, kick }) {
    const stores = await createStores(mongo);
    const events = new ProjectEvents(config.CRAFTER_NAMESPACE);
    const deps: ProjectsDeps = { stores, events, kick, logger, now: () => new Date() };
    return {
      routes: routes(deps),
      access,
      publishes: [events.topic],
      outbox: stores.outbox,
      consumers: projectsConsumers(config.CRAFTER_NAMESPACE, deps),
    };
  },
});
