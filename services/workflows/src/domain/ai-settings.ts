import { appError } from "@crafter/kit";
import type { AiSettings, ModelSpec } from "../config";

/**
 * A user's own AI provider (the AI settings page), stored per user account: the settings belong to
 * whoever pays for the provider, the account owner (or an admin), and apply to every project of
 * that account. The key is only ever kept sealed (the kit's crypto/secret-box.ts).
 */

export const USER_PROVIDERS = ["openai", "google", "openai-compatible"] as const;
export type UserProvider = (typeof USER_PROVIDERS)[number];

/** What the user chose, validated; `apiKey` undefined = keep the saved one. */
export interface AiSettingsInput {
  provider: UserProvider;
  baseUrl: string;
  defaultModel: string;
  workflowModels: Record<string, string>;
  apiKey: string | undefined;
}

const MODEL = /^[\w.:/@+-]{1,120}$/;

/**
 * Validates the page's form. Field errors (CR_ERR_BAD_REQUEST) name the field:
 * - provider: one of USER_PROVIDERS; baseUrl: http(s), required for openai-compatible;
 * - defaultModel and each workflow model: a model id (letters, digits, `.:/@+-_`, ≤ 120);
 * - workflowModels: names of known workflows (`known`), at most 50;
 * - apiKey: ≤ 500 characters, no spaces; required for openai and google when none is saved.
 * @throws AppError CR_ERR_BAD_REQUEST with `fields`.
 */
export function validateAiSettings(
  raw: {
    provider: string;
    baseUrl: string;
    defaultModel: string;
    workflowModels: Record<string, string>;
    apiKey: string;
  },
  options: { keySaved: boolean; known: (workflow: string) => boolean },
): AiSettingsInput {
  const fields: Record<string, string> = {};
  const provider = raw.provider as UserProvider;
  if (!(USER_PROVIDERS as readonly string[]).includes(provider)) {
    fields.provider = "Choose OpenAI, Google or an OpenAI-compatible endpoint.";
  }
  const baseUrl = raw.baseUrl.trim();
  if (baseUrl) {
    let url: URL | undefined;
    try {
      url = new URL(baseUrl);
    } catch {
      url = undefined;
    }
    if (!url || !["http:", "https:"].includes(url.protocol) || url.username || url.password) {
      fields.baseUrl = "Enter the endpoint's address, e.g. http://localhost:11434/v1.";
    }
  } else if (provider === "openai-compatible") {
    fields.baseUrl = "An OpenAI-compatible endpoint needs its base URL, e.g. http://localhost:11434/v1.";
  }
  const defaultModel = raw.defaultModel.trim();
  if (!MODEL.test(defaultModel)) fields.defaultModel = "Enter the model's id, e.g. gpt-4o-mini or llama3.1.";
  const workflowModels: Record<string, string> = {};
  const entries = Object.entries(raw.workflowModels);
  if (entries.length > 50) fields.workflowModels = "At most 50 workflow models.";
  for (const [workflow, model] of entries) {
    const id = model.trim();
    if (!id) continue; // a blank row means "use the default model"
    if (!options.known(workflow)) fields[`workflowModels.${workflow}`] = "There is no such workflow.";
    else if (!MODEL.test(id)) fields[`workflowModels.${workflow}`] = "Enter the model's id.";
    else workflowModels[workflow] = id;
  }
  const apiKey = raw.apiKey.trim() || undefined;
  if (apiKey && (apiKey.length > 500 || /\s/.test(apiKey))) fields.apiKey = "This does not look like an API key.";
  if (!apiKey && !options.keySaved && provider !== "openai-compatible" && !fields.provider) {
    fields.apiKey = "Enter the provider's API key.";
  }
  if (Object.keys(fields).length > 0) throw appError("CR_ERR_BAD_REQUEST", Object.values(fields)[0], fields);
  return { provider, baseUrl, defaultModel, workflowModels, apiKey };
}

/** A user's saved settings with the key opened: what their generation runs with. */
export interface UserAi {
  provider: UserProvider;
  baseUrl: string;
  defaultModel: string;
  workflowModels: Record<string, string>;
  apiKey: string;
}

/** The model spec of one model of the user's provider. */
export function userSpec(
  ai: Pick<UserAi, "provider" | "baseUrl" | "apiKey">,
  model: string,
): Exclude<ModelSpec, { provider: "offline" }> {
  return {
    provider: ai.provider,
    model,
    ...(ai.baseUrl ? { baseURL: ai.baseUrl } : {}),
    ...(ai.apiKey ? { apiKey: ai.apiKey } : {}),
  };
}

/**
 * The engine settings of a user: their default model for every workflow, their per-workflow
 * models, and the server's timeouts. Nothing of the server's own provider or key is used.
 */
export function userAiSettings(ai: UserAi, server: Pick<AiSettings, "timeoutMs" | "maxRetries">): AiSettings {
  return {
    default: userSpec(ai, ai.defaultModel),
    workflows: Object.fromEntries(
      Object.entries(ai.workflowModels).map(([workflow, model]) => [workflow, userSpec(ai, model)]),
    ),
    timeoutMs: server.timeoutMs,
    maxRetries: server.maxRetries,
  };
}

/** Removes every occurrence of `secret` from a text shown to the user (a provider may echo the key). */
export function redact(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) return text;
  return text.split(secret).join("••••");
}

/** The last 4 characters of a key, the only part of it ever shown again. */
export function keyHint(apiKey: string): string {
  return apiKey.length > 8 ? apiKey.slice(-4) : "";
}
