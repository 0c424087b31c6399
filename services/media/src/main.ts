import { runService } from "@crafter/kit";
import { configSchema } from "./config";
import type { MediaDeps } from "./deps";
import { mediaConsumers } from "./events/consumers";
import { MediaEvents } from "./events/publishers";
import { access } from "./rpc/access";
import { routes } from "./rpc/routes";
import { createStores } from "./store";

await runService({
  name: "media",
  configSchema,
  async setup({ config, logger, mongo, kick }) {
    const stores = await createStores(mongo);
    const events = new MediaEvents(config.CRAFTER_NAMESPACE);
    const deps: MediaDeps = { stores, events, kick, logger, now: () => new Date() };
    return {
      routes: routes(deps),
      access,
      publishes: events.topics,
      outbox: stores.outbox,
      consumers: mediaConsumers(config.CRAFTER_NAMESPACE, deps),
    };
  },
});
