import {
  appError,
  type Caller,
  hitRateLimit,
  type KeyRing,
  openSecret,
  type RateLimitPolicy,
  rateLimitedError,
  sealSecret,
} from "@crafter/kit";
import { can } from "@crafter/roles";
import type { WorkflowsDeps } from "../deps";
import { keyHint, redact, type UserProvider, userSpec, validateAiSettings } from "../domain/ai-settings";
import { describeProviderFailure } from "../generation/errors";
import { probeModel } from "../generation/providers";
import type { AiSettingsDoc } from "../store/ai-settings.repository";

/** What the page shows: never the key, only whether one is set and its last 4 characters. */
export interface AiSettingsView {
  provider: UserProvider;
  baseUrl: string;
  defaultModel: string;
  workflowModels: Record<string, string>;
  keySet: boolean;
  keyLast4: string;
  updatedAt: Date;
}

/** @throws FORBIDDEN unless the caller is an owner or admin (`ai.settings` in @crafter/roles). */
function requireManager(caller: Caller): void {
  if (!can(caller.role, "ai.settings")) {
    throw appError("FORBIDDEN", "Only the account's owner or an admin can change the AI settings.");
  }
}

function requireKey(deps: WorkflowsDeps): KeyRing {
  if (!deps.ai.key) {
    throw appError("UNAVAILABLE", "AI settings are not enabled on this server (its operator sets AI_SETTINGS_KEY).");
  }
  return deps.ai.key;
}

function viewOf(doc: AiSettingsDoc): AiSettingsView {
  return {
    provider: doc.provider,
    baseUrl: doc.baseUrl,
    defaultModel: doc.defaultModel,
    workflowModels: doc.workflowModels ?? {},
    keySet: doc.keySealed !== "",
    keyLast4: doc.keyLast4,
    updatedAt: doc.updatedAt,
  };
}

/**
 * The caller's saved AI settings. @returns `{ settings: view | null, available }` (`available`
 * false when the server has no AI_SETTINGS_KEY). @throws FORBIDDEN (not owner/admin).
 */
export async function getAiSettings(
  deps: WorkflowsDeps,
  caller: Caller,
): Promise<{ settings: AiSettingsView | null; available: boolean }> {
  requireManager(caller);
  const doc = await deps.stores.aiSettings.get(caller.userId);
  return { settings: doc ? viewOf(doc) : null, available: deps.ai.key !== undefined };
}

export interface SaveAiSettingsInput {
  provider: string;
  baseUrl: string;
  defaultModel: string;
  workflowModels: Record<string, string>;
  /** "" keeps the saved key. */
  apiKey: string;
}

/**
 * Saves the caller's provider, models and (sealed) key; their next generation uses them.
 * A key is kept only for the provider and base URL it was given with: changing either without a
 * new key drops it (it would otherwise be sent to another server).
 * @throws FORBIDDEN; CR_ERR_BAD_REQUEST with fields (validateAiSettings); UNAVAILABLE without AI_SETTINGS_KEY.
 */
export async function saveAiSettings(
  deps: WorkflowsDeps,
  caller: Caller,
  input: SaveAiSettingsInput,
): Promise<AiSettingsView> {
  requireManager(caller);
  const key = requireKey(deps);
  const saved = await deps.stores.aiSettings.get(caller.userId);
  const sameEndpoint = saved !== null && saved.provider === input.provider && saved.baseUrl === input.baseUrl.trim();
  const keptKey = sameEndpoint && saved.keySealed !== "";
  const valid = validateAiSettings(input, {
    keySaved: keptKey,
    known: (name) => deps.registry.isListed(name) || name === "Assistant" || name === "ImagePromptWriter",
  });
  const doc: AiSettingsDoc = {
    _id: caller.userId,
    provider: valid.provider,
    baseUrl: valid.baseUrl,
    defaultModel: valid.defaultModel,
    workflowModels: valid.workflowModels,
    keySealed: valid.apiKey ? sealSecret(key, valid.apiKey, caller.userId) : keptKey ? saved.keySealed : "",
    keyLast4: valid.apiKey ? keyHint(valid.apiKey) : keptKey ? saved.keyLast4 : "",
    updatedAt: deps.now(),
  };
  await deps.stores.aiSettings.put(doc);
  deps.engines.forget(caller.userId);
  deps.logger.info({ userId: caller.userId, provider: doc.provider, model: doc.defaultModel }, "AI settings saved");
  return viewOf(doc);
}

/** Removes the caller's settings: the server's engine writes again. @throws FORBIDDEN. */
export async function deleteAiSettings(deps: WorkflowsDeps, caller: Caller): Promise<void> {
  requireManager(caller);
  await deps.stores.aiSettings.delete(caller.userId);
  deps.engines.forget(caller.userId);
}

export interface TestAiConnectionInput {
  provider: string;
  baseUrl: string;
  model: string;
  /** "" uses the saved key (when the provider and base URL are the saved ones). */
  apiKey: string;
}

/**
 * Test connection calls the provider for real (the user's quota, and a request to a URL they
 * chose), so each user may test at most 10 times in 10 minutes (fixed window in Redis).
 */
export const TEST_CONNECTION_LIMIT: RateLimitPolicy = { name: "ai-test-connection", limit: 10, windowSeconds: 600 };

/**
 * Makes one small real call with the given settings and reports it in plain words; a failing
 * provider is an answer (`ok: false`), not an error. The key never appears in the message.
 * @returns `{ ok, message, latencyMs }`. @throws FORBIDDEN; CR_ERR_BAD_REQUEST (fields);
 * RATE_LIMITED (429, with Retry-After and the RateLimit headers) past TEST_CONNECTION_LIMIT.
 */
export async function testAiConnection(
  deps: WorkflowsDeps,
  caller: Caller,
  input: TestAiConnectionInput,
): Promise<{ ok: boolean; message: string; latencyMs: number }> {
  requireManager(caller);
  const { name, limit, windowSeconds } = TEST_CONNECTION_LIMIT;
  const rate = await hitRateLimit(deps.ai.redis, `${name}:${caller.userId}`, limit, windowSeconds);
  if (!rate.allowed) throw rateLimitedError(TEST_CONNECTION_LIMIT, rate);
  const saved = await deps.stores.aiSettings.get(caller.userId);
  let apiKey = input.apiKey.trim();
  if (!apiKey && saved?.keySealed && deps.ai.key) {
    if (saved.provider === input.provider && saved.baseUrl === input.baseUrl.trim()) {
      try {
        apiKey = openSecret(deps.ai.key, saved.keySealed, caller.userId);
      } catch {
        apiKey = "";
      }
    }
  }
  const valid = validateAiSettings(
    { provider: input.provider, baseUrl: input.baseUrl, defaultModel: input.model, workflowModels: {}, apiKey },
    { keySaved: false, known: () => true },
  );
  const model = deps.ai.model(userSpec({ ...valid, apiKey: valid.apiKey ?? "" }, valid.defaultModel));
  try {
    const latencyMs = await probeModel(model, deps.ai.probeTimeoutMs, caller.signal);
    return { ok: true, message: `Connected: ${valid.defaultModel} answered in ${latencyMs} ms.`, latencyMs };
  } catch (error) {
    if (caller.signal.aborted) throw error;
    deps.logger.info({ userId: caller.userId, err: error }, "AI settings: test connection failed");
    return { ok: false, message: redact(describeProviderFailure(error), valid.apiKey), latencyMs: 0 };
  }
}
