import { runService } from "@crafter/kit";
import { createBillingCredits } from "./clients/billing";
import { projectsProfileSource } from "./clients/profiles";
import { aiSettings, configSchema } from "./config";
import { DEFINITIONS, TEST_DEFINITIONS } from "./definitions/index";
import type { WorkflowsDeps } from "./deps";
import { DefinitionRegistry } from "./domain/registry";
import { CraftEvents } from "./events/publishers";
import { buildFunctions } from "./functions/index";
import { COMPOSERS } from "./generation/offline/composers";
import { checkWorkflowModels, createTextEngine, specLabel } from "./generation/providers";
import { access, pagesAccess } from "./rpc/access";
import { routes } from "./rpc/routes";
import { createStores } from "./store";
import { redisActionLocks } from "./store/action-lock";

await runService({
  name: "workflows",
  configSchema,
  async setup({ config, logger, mongo, redis, kick, credentials }) {
    const registry = new DefinitionRegistry(
      config.WORKFLOWS_TEST_FIXTURES ? [...DEFINITIONS, ...TEST_DEFINITIONS] : DEFINITIONS,
      COMPOSERS,
    );
    const ai = aiSettings(config);
    // The image prompt writers and the assistant have models of their own too.
    const extra = new Set(["ImagePromptWriter", "Assistant"]);
    checkWorkflowModels(ai, (name) => registry.isListed(name) || extra.has(name));
    const engine = createTextEngine(ai, { offlineDelayMs: config.OFFLINE_STREAM_DELAY_MS, logger });
    logger.info(
      {
        engine: specLabel(ai.default),
        workflows: Object.fromEntries(Object.entries(ai.workflows).map(([name, spec]) => [name, specLabel(spec)])),
      },
      ai.default.provider === "offline"
        ? "no AI provider configured; using the offline engine"
        : "generating with the configured AI provider",
    );
    const stores = await createStores(mongo);
    const events = new CraftEvents(config.CRAFTER_NAMESPACE);
    const deps: WorkflowsDeps = {
      stores,
      clients: {
        credits: createBillingCredits(config.BILLING_URL, config.RPC_TIMEOUT_MS, credentials),
        profiles: projectsProfileSource(config.PROJECTS_URL, config.RPC_TIMEOUT_MS),
      },
      locks: redisActionLocks(redis),
      registry,
      engine,
      functions: buildFunctions(config),
      events,
      kick,
      logger,
      now: () => new Date(),
    };
    return {
      routes: routes(deps),
      access: { ...access, ...pagesAccess },
      outbox: stores.outbox,
      publishes: [events.topic],
    };
  },
});
