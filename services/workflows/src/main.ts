import { runService } from "@crafter/kit";
import { createBillingCredits } from "./clients/billing";
import { projectsBrandVoiceSource } from "./clients/brand-voice";
import { createMediaPort } from "./clients/media";
import { projectsProfileSource } from "./clients/profiles";
import { aiKeyRing, aiSettings, configSchema } from "./config";
import { DEFINITIONS, TEST_DEFINITIONS } from "./definitions/index";
import type { WorkflowsDeps } from "./deps";
import { DefinitionRegistry } from "./domain/registry";
import { workflowsConsumers } from "./events/consumers";
import { CraftEvents } from "./events/publishers";
import { buildFunctions } from "./functions/index";
import { COMPOSERS } from "./generation/offline/composers";
import { checkWorkflowModels, createTextEngine, languageModel, specLabel, userUrlFetch } from "./generation/providers";
import { createEngineSource } from "./generation/user-engines";
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
    const aiRing = aiKeyRing(config);
    // Users' own providers (AI settings): their URLs go through the public-address guard.
    const userFetch = userUrlFetch(config.AI_SETTINGS_RESOLVE, ai.timeoutMs);
    const build = (settings: typeof ai) =>
      createTextEngine(settings, { offlineDelayMs: config.OFFLINE_STREAM_DELAY_MS, logger, fetch: userFetch });
    const engines = createEngineSource({
      fallback: engine,
      load: (userId) => stores.aiSettings.get(userId),
      key: aiRing,
      build,
      server: ai,
      ttlMs: config.AI_SETTINGS_CACHE_MS,
      logger,
    });
    if (!aiRing) logger.warn("AI_SETTINGS_KEY is not set: users cannot save their own AI provider");
    const events = new CraftEvents(config.CRAFTER_NAMESPACE);
    const deps: WorkflowsDeps = {
      stores,
      clients: {
        credits: createBillingCredits(config.BILLING_URL, config.RPC_TIMEOUT_MS, credentials),
        profiles: projectsProfileSource(config.PROJECTS_URL, config.RPC_TIMEOUT_MS),
        brandVoice: projectsBrandVoiceSource(config.PROJECTS_URL, config.RPC_TIMEOUT_MS),
        media: createMediaPort(config.MEDIA_URL, config.RPC_TIMEOUT_MS, credentials),
      },
      locks: redisActionLocks(redis),
      registry,
      engine,
      engines,
      ai: {
        key: aiRing,
        build,
        model: (spec) => languageModel(spec, userFetch),
        server: ai,
        probeTimeoutMs: Math.min(ai.timeoutMs, 20_000),
        redis,
      },
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
      consumers: workflowsConsumers(config.CRAFTER_NAMESPACE, deps),
    };
  },
});
