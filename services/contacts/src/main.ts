import { runService } from "@crafter/kit";
import { freeTierPlans } from "./clients/plans";
import { configSchema } from "./config";
import type { ContactsDeps } from "./deps";
import { contactsConsumers } from "./events/consumers";
import { ContactsEvents } from "./events/publishers";
import { access } from "./rpc/access";
import { routes } from "./rpc/routes";
import { createStores } from "./store";
import { resumeImports } from "./usecases/imports";

await runService({
  name: "contacts",
  configSchema,
  async setup({ config, logger, mongo, kick }) {
    const stores = await createStores(mongo);
    const events = new ContactsEvents(config.CRAFTER_NAMESPACE);
    const deps: ContactsDeps = { stores, events, plans: freeTierPlans, kick, logger, now: () => new Date() };
    // Imports a stopped service left running go on from their last checkpoint.
    setTimeout(() => resumeImports(deps).catch((err) => logger.error({ err }, "resuming imports failed")), 500);
    return {
      routes: routes(deps),
      access,
      publishes: events.topics,
      outbox: stores.outbox,
      consumers: contactsConsumers(config.CRAFTER_NAMESPACE, deps),
    };
  },
});
