import { runService } from "@crafter/kit";
import { projectsProfileSource } from "./clients/profiles";
import { aiProvider, configSchema } from "./config";
import { CATALOG, DEFINITIONS, TEST_CATALOG, TEST_DEFINITIONS } from "./definitions/index";
import { DefinitionRegistry } from "./domain/registry";
import { CraftEvents } from "./events/craft-events";
import { buildFunctions } from "./functions/index";
import { createAiSdkEngine } from "./generation/ai-sdk-engine";
import { createOfflineEngine } from "./generation/offline-engine";
import { routes } from "./rpc/routes";
import { redisActionLocks } from "./store/action-lock";
import { CraftRepository } from "./store/craft.repository";
import { craftModel } from "./store/craft.schema";

await runService({
  name: "workflows",
  configSchema,
  async setup({ config, logger, mongo, redis, relay }) {
    const registry = config.WORKFLOWS_TEST_FIXTURES
      ? new DefinitionRegistry([...CATALOG, ...TEST_CATALOG], [...DEFINITIONS, ...TEST_DEFINITIONS])
      : new DefinitionRegistry(CATALOG, DEFINITIONS);
    const provider = aiProvider(config);
    const engine = provider
      ? createAiSdkEngine({ ...provider, timeoutMs: config.AI_TIMEOUT_MS, maxRetries: config.AI_MAX_RETRIES, logger })
      : createOfflineEngine({ delayMs: config.OFFLINE_STREAM_DELAY_MS });
    logger.info(
      { engine: engine.name, ...(provider ? { baseURL: provider.baseURL } : {}) },
      provider ? "generating with the configured AI provider" : "no AI provider configured; using the offline engine",
    );
    const crafts = craftModel(mongo);
    const events = new CraftEvents(config.CRAFTER_NAMESPACE);
    const deps = {
      crafts: new CraftRepository(crafts),
      registry,
      engine,
      functions: buildFunctions(config),
      // TODO(integrator): pass the billing client (src/clients/billing.ts, branch `billing`) when
      // BILLING_URL is configured, e.g. `credits: config.BILLING_URL ? billingCredits(config.BILLING_URL, …) : undefined`.
      credits: undefined,
      locks: redisActionLocks(redis),
      profiles: projectsProfileSource(config.PROJECTS_URL, config.RPC_TIMEOUT_MS),
      events,
      kick: () => relay()?.kick(),
      logger,
      now: () => new Date(),
    };
    return { routes: routes(deps), outbox: [crafts], publishes: [events.topic] };
  },
});
