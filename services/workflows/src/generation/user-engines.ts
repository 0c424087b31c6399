import { type KeyRing, type Logger, openSecret } from "@crafter/kit";
import type { AiSettings } from "../config";
import { type UserAi, userAiSettings } from "../domain/ai-settings";
import type { AiSettingsDoc } from "../store/ai-settings.repository";
import type { TextEngine } from "./text-engine";

/** The text engine each user's generation runs with. */
export interface EngineSource {
  /** The user's own provider when they saved AI settings, else the server's engine. */
  forUser(userId: string): Promise<TextEngine>;
  /** Drops the user's cached engine (after they save or delete their settings). */
  forget(userId: string): void;
}

export interface EngineSourceOptions {
  /** The server's engine (config: AI_PROVIDER…, or offline). */
  fallback: TextEngine;
  /** The stored settings of a user, or null. */
  load(userId: string): Promise<AiSettingsDoc | null>;
  /** The ring of AI_SETTINGS_KEY / SECRETS_KEYS; without it no user settings are read (the server's engine writes). */
  key: KeyRing | undefined;
  /** Builds an engine from settings (providers.ts createTextEngine with the user-URL guard). */
  build(settings: AiSettings): TextEngine;
  server: Pick<AiSettings, "timeoutMs" | "maxRetries">;
  /** How long a user's engine is reused before their settings are read again, in ms. */
  ttlMs: number;
  /** At most this many users' engines are cached (the oldest go first). */
  maxEntries?: number;
  logger: Logger;
  now?: () => number;
}

/**
 * Per-user engines, cached in process for `ttlMs` so a generation reads the settings (one
 * `_id` read) at most once per user per TTL, never per token. Another replica sees a change after
 * at most the TTL; this one at once (`forget`). A key that no longer opens (AI_SETTINGS_KEY
 * changed) falls back to the server's engine and is logged, never shown.
 */
export function createEngineSource(options: EngineSourceOptions): EngineSource {
  const cache = new Map<string, { engine: TextEngine; until: number }>();
  const now = options.now ?? Date.now;
  const max = options.maxEntries ?? 10_000;

  async function resolve(userId: string): Promise<TextEngine> {
    if (!options.key || !userId) return options.fallback;
    const doc = await options.load(userId);
    if (!doc) return options.fallback;
    let apiKey = "";
    if (doc.keySealed) {
      try {
        apiKey = openSecret(options.key, doc.keySealed, userId);
      } catch (error) {
        options.logger.error({ err: error, userId }, "a saved AI key does not open (AI_SETTINGS_KEY changed?)");
        return options.fallback;
      }
    }
    const ai: UserAi = {
      provider: doc.provider,
      baseUrl: doc.baseUrl,
      defaultModel: doc.defaultModel,
      workflowModels: doc.workflowModels ?? {},
      apiKey,
    };
    return options.build(userAiSettings(ai, options.server));
  }

  return {
    async forUser(userId) {
      const hit = cache.get(userId);
      if (hit && hit.until > now()) return hit.engine;
      const engine = await resolve(userId);
      cache.delete(userId);
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(userId, { engine, until: now() + options.ttlMs });
      return engine;
    },
    forget(userId) {
      cache.delete(userId);
    },
  };
}
