import { createHmac } from "node:crypto";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { pace, periodicJob, providerHttp, runService, shopifyStore } from "@crafter/kit";
import { createBillingPlans } from "./clients/plans";
import { configSchema } from "./config";
import type { ContactsDeps } from "./deps";
import { contactsConsumers } from "./events/consumers";
import { ContactsEvents } from "./events/publishers";
import { createImportQueue } from "./jobs/import-queue";
import { access, leadsAccess } from "./rpc/access";
import { routes } from "./rpc/routes";
import { createStores } from "./store";
import { resumeConsentAsks } from "./usecases/consent-asks";
import { startDateTokenBackfill } from "./usecases/date-tokens";
import { failImport, resumeImports, runImport } from "./usecases/imports";
import { settleUnsettled } from "./usecases/leads";

await runService({
  name: "contacts",
  configSchema,
  async setup({ config, logger, mongo, redis, kick, credentials }) {
    const stores = await createStores(mongo, redis, logger, config.CONTACT_SNAPSHOT_CAPACITY);
    const events = new ContactsEvents(config.CRAFTER_NAMESPACE);
    const secret =
      config.CONTACTS_LINK_SECRET ??
      (config.SERVICE_SECRET
        ? createHmac("sha256", config.SERVICE_SECRET).update("contacts-link-secret").digest("base64url")
        : undefined);
    if (!secret) throw new Error("CONTACTS_LINK_SECRET (or SERVICE_SECRET) is required to sign contact links");
    const assistantModel =
      config.AI_BASE_URL && config.AI_MODEL
        ? {
            model: createOpenAICompatible({
              name: "crafter-ai",
              baseURL: config.AI_BASE_URL,
              apiKey: config.AI_API_KEY,
            }).chatModel(config.AI_MODEL),
            timeoutMs: config.AI_TIMEOUT_MS,
          }
        : undefined;
    const importQueue = createImportQueue({
      redisUrl: config.REDIS_URL,
      namespace: config.CRAFTER_NAMESPACE,
      logger,
      lockMs: config.IMPORT_JOB_LOCK_MS,
      concurrency: config.IMPORT_CONCURRENCY,
    });
    const deps: ContactsDeps = {
      stores,
      events,
      plans: createBillingPlans(config.BILLING_URL, config.RPC_TIMEOUT_MS, credentials),
      links: { secret, origin: config.PUBLIC_ORIGIN },
      assistantModel,
      paceConsentAsk: (userId) =>
        pace(redis, [
          { key: "pace:consent-ask", perSecond: config.CONSENT_ASKS_PER_SECOND, burst: 1 },
          { key: `pace:consent-ask:user:${userId}`, perSecond: config.CONSENT_ASKS_PER_USER_SECOND, burst: 1 },
        ]),
      kick,
      enqueueImport: (importId, resumed) => importQueue.enqueue(importId, resumed),
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
      logger,
      now: () => new Date(),
    };
    // Lead-form submissions a crash left received (their contact, interaction or double opt-in not yet
    // written) are settled by a periodic sweep, in one replica per occurrence.
    const leadSweep = periodicJob({
      redisUrl: config.REDIS_URL,
      namespace: config.CRAFTER_NAMESPACE,
      logger,
      queue: "lead-submission-sweep",
      everyMs: config.LEAD_SWEEP_MS,
      run: async () => {
        const settled = await settleUnsettled(deps, config.LEAD_SWEEP_MS);
        if (settled > 0) logger.info({ settled }, "lead submissions settled after a crash");
      },
    });
    return {
      async background() {
        await leadSweep.start();
        importQueue.start(
          (importId, run) => runImport(deps, importId, run),
          (importId, error) => failImport(deps, importId, error),
        );
        // Imports whose job Redis lost are queued again (a no-op for those still queued or running).
        void resumeImports(deps).catch((err) => logger.error({ err }, "resuming imports failed"));
        // Requests for permission a stopped service left running go on (each contact asked once).
        setTimeout(
          () =>
            resumeConsentAsks(deps).catch((err) => logger.error({ err }, "resuming requests for permission failed")),
          500,
        );
        // Contacts saved before month-day facets get theirs, once per database (a done-marker).
        startDateTokenBackfill(deps);
      },
      routes: routes(deps),
      access: { ...access, ...leadsAccess },
      publishes: events.topics,
      outbox: stores.outbox,
      consumers: contactsConsumers(config.CRAFTER_NAMESPACE, deps),
      onStop: async () => {
        await leadSweep.close();
        await importQueue.close();
      },
    };
  },
});
