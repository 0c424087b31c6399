import type { KeyRing, Logger, Redis } from "@crafter/kit";
import type { LanguageModel } from "ai";
import type { BrandVoiceSource } from "./clients/brand-voice";
import type { ProfileSource } from "./clients/profiles";
import type { AiSettings, ModelSpec } from "./config";
import type { CreditsPort } from "./domain/credits";
import type { MediaPort } from "./domain/media-step";
import type { DefinitionRegistry } from "./domain/registry";
import type { CraftEvents } from "./events/publishers";
import type { FunctionRegistry } from "./functions/types";
import type { TextEngine } from "./generation/text-engine";
import type { EngineSource } from "./generation/user-engines";
import type { WorkflowsStores } from "./store";
import type { ActionLocks } from "./store/action-lock";

/** The other services the use cases call. */
export interface WorkflowsClients {
  /** Billing: debits before generation, refunds when it fails. */
  credits: CreditsPort;
  /** Projects: the profile a craft prefills from, read on behalf of the caller. */
  profiles: ProfileSource;
  /** Projects: the brand voice every generation of a craft's project writes in. */
  brandVoice: BrandVoiceSource;
  /** Media: the images and audio of the ImageAppender and AudioGenerator steps. */
  media: MediaPort;
}

/** What the workflows use cases need; built once in main.ts. */
export interface WorkflowsDeps {
  stores: WorkflowsStores;
  clients: WorkflowsClients;
  /** One running action per craft (Redis). */
  locks: ActionLocks;
  registry: DefinitionRegistry;
  /** The server's engine (config), for generation of users without AI settings. */
  engine: TextEngine;
  /** The engine of each user: their own provider when they saved one, else `engine`. */
  engines: EngineSource;
  /** What the AI settings use cases need. */
  ai: AiSettingsDeps;
  /** The functions of FunctionCaller actions (src/functions). */
  functions: FunctionRegistry;
  /** Builders of the craft events (`<ns>.workflows.craft.v1`). */
  events: CraftEvents;
  /** Wakes the outbox relay after a write that added events. */
  kick: () => void;
  logger: Logger;
  now: () => Date;
}

/** The AI settings page's backing: the key that seals provider keys and how user URLs are called. */
export interface AiSettingsDeps {
  /** AI_SETTINGS_KEY / SECRETS_KEYS (config.ts aiKeyRing); undefined = settings cannot be saved. */
  key: KeyRing | undefined;
  /** Builds an engine for settings, calling user URLs through the public-address guard. */
  build(settings: AiSettings): TextEngine;
  /** The model of a spec, calling user URLs through the guard (for Test connection). */
  model(spec: Exclude<ModelSpec, { provider: "offline" }>): LanguageModel;
  server: Pick<AiSettings, "timeoutMs" | "maxRetries">;
  /** Test connection's time limit, in ms. */
  probeTimeoutMs: number;
  /** Test connection's per-user rate limit counters. */
  redis: Redis;
}
