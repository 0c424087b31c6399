import {
  baseConfigSchema,
  hostPinsSetting,
  type KeyRing,
  keyRing,
  keyRingSetting,
  optionalSetting,
  parseSecretKey,
} from "@crafter/kit";
import { z } from "zod";

/** An unset or blank variable is "not given" (so `AI_BASE_URL=` in a .env file means offline). */
export const PROVIDERS = ["openai", "google", "openai-compatible", "offline"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** `{"GoogleAdsWriter":"openai:gpt-4o-mini","BlogWriter":"offline","SeoWriter":"gpt-4.1"}` */
const workflowModels = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: 'must be JSON, e.g. {"GoogleAdsWriter":"openai:gpt-4o-mini"}' });
      return z.NEVER;
    }
  })
  .pipe(z.record(z.string().min(1), z.string().trim().min(1, "a model is required")));

export const configSchema = baseConfigSchema
  .extend({
    PORT: z.coerce.number().int().positive().default(50054),
    /** The projects service, asked for the profile a craft prefills from. */
    PROJECTS_URL: z.url(),
    /** The billing service, which debits and refunds credits (clients/billing.ts). */
    BILLING_URL: z.url(),
    /** The media service: the images and audio of the ImageAppender and AudioGenerator steps. */
    MEDIA_URL: z.url(),
    /** Required: workflows debits and refunds credits with its own service token (kit config). */
    SERVICE_SECRET: z.string().min(32),
    /**
     * Who writes the text: openai, google, openai-compatible (OpenAI-style endpoint at AI_BASE_URL:
     * Ollama, vLLM, LiteLLM…) or offline. Unset: openai-compatible when AI_BASE_URL is set, else offline.
     */
    AI_PROVIDER: optionalSetting(z.enum(PROVIDERS)),
    /** The endpoint: required for openai-compatible; a proxy or regional URL for openai / google. */
    AI_BASE_URL: optionalSetting(z.url()),
    /** The key of AI_PROVIDER (required for openai and google). */
    AI_API_KEY: optionalSetting(z.string()),
    /** The model id, e.g. gpt-4o-mini, gemini-2.5-flash or llama3.1. */
    AI_MODEL: optionalSetting(z.string()),
    /** Keys for per-workflow overrides that use another provider than AI_PROVIDER (the SDK's own names). */
    OPENAI_API_KEY: optionalSetting(z.string()),
    GOOGLE_GENERATIVE_AI_API_KEY: optionalSetting(z.string()),
    /**
     * Per-workflow models, JSON: workflow name → "provider:model", "model" (AI_PROVIDER's) or "offline".
     * Workflow names are checked against the registry at start.
     */
    AI_WORKFLOW_MODELS: optionalSetting(workflowModels),
    /** The longest wait for the provider's next chunk (the first included, retries included), in ms. */
    AI_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
    /** Retries of a failed provider call (429, 5xx, network) with exponential backoff. */
    AI_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
    /** Pause between streamed chunks of the offline engine, so a person sees the draft being written. */
    OFFLINE_STREAM_DELAY_MS: z.coerce.number().int().min(0).default(12),
    /** Website audit: total time to read a page, in ms. */
    WEBSITE_AUDIT_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    /** Website audit: bytes of a page read at most (the rest is not audited). */
    WEBSITE_AUDIT_MAX_BYTES: z.coerce.number().int().positive().default(2_000_000),
    /**
     * Website audit host pins, `host=ip` comma-separated (`*.site.test=127.0.0.1`), like curl's
     * --resolve. Pinned hosts may be private addresses (test sites, an allowed intranet); no other
     * private, loopback or link-local address is ever fetched.
     */
    WEBSITE_AUDIT_RESOLVE: hostPinsSetting,
    /**
     * Encrypts the provider keys users save on the AI settings page (AES-256-GCM): 32 bytes,
     * base64 or hex (`openssl rand -base64 32`). Unset: the AI settings page cannot save, and
     * everyone's generation uses the provider above. Changing it makes saved keys unreadable
     * (those users fall back to the provider above until they enter their key again).
     */
    AI_SETTINGS_KEY: optionalSetting(
      z.string().transform((text, ctx) => {
        try {
          return parseSecretKey(text);
        } catch (error) {
          ctx.addIssue({ code: "custom", message: (error as Error).message });
          return z.NEVER;
        }
      }),
    ),
    /**
     * The key ring that seals secrets at rest (AES-256-GCM), `id:key,id:key` with 32-byte keys
     * (base64 or hex); the first seals, every one opens, so a key rotates by putting a new one first.
     * Unset: AI_SETTINGS_KEY alone seals (as key id `ai`). AI_SETTINGS_KEY always opens what it sealed.
     */
    SECRETS_KEYS: keyRingSetting,
    /**
     * AI settings: hosts a user's base URL may name although they are private, `host=ip` pairs
     * (e.g. `localhost=127.0.0.1` for a local Ollama). No other private address is ever called.
     */
    AI_SETTINGS_RESOLVE: hostPinsSetting,
    /** How long a user's AI settings are reused before being read again, in ms (per process). */
    AI_SETTINGS_CACHE_MS: z.coerce.number().int().min(0).default(30_000),
    /** Keyword / competitor research provider (DataForSEO API base, e.g. https://api.dataforseo.com); unset = no data. */
    RESEARCH_PROVIDER_URL: optionalSetting(z.url()),
    RESEARCH_PROVIDER_LOGIN: optionalSetting(z.string()),
    RESEARCH_PROVIDER_PASSWORD: optionalSetting(z.string()),
    /** The market researched: DataForSEO location_name and language_code. */
    RESEARCH_LOCATION: z.string().min(1).default("United States"),
    RESEARCH_LANGUAGE: z.string().min(2).default("en"),
    RESEARCH_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
    /** Registers the hidden EngineCheck workflow the integration tests run (test stack only). */
    WORKFLOWS_TEST_FIXTURES: z
      .enum(["true", "false"])
      .default("false")
      .transform((value) => value === "true"),
  })
  .superRefine((config, ctx) => {
    const resolved = resolveAi(config);
    for (const problem of resolved.problems)
      ctx.addIssue({ code: "custom", path: [problem.path], message: problem.message });
    if (config.RESEARCH_PROVIDER_URL && !(config.RESEARCH_PROVIDER_LOGIN && config.RESEARCH_PROVIDER_PASSWORD)) {
      ctx.addIssue({
        code: "custom",
        path: ["RESEARCH_PROVIDER_LOGIN"],
        message:
          "RESEARCH_PROVIDER_LOGIN and RESEARCH_PROVIDER_PASSWORD are required when RESEARCH_PROVIDER_URL is set",
      });
    }
  });

export type Config = z.infer<typeof configSchema>;

/** One way of writing text: the offline engine, or a model of a provider. */
export type ModelSpec =
  | { provider: "offline" }
  | { provider: Exclude<ProviderName, "offline">; model: string; baseURL?: string; apiKey?: string };

/** The engine of every workflow, and the workflows that use another one. */
export interface AiSettings {
  default: ModelSpec;
  workflows: Record<string, ModelSpec>;
  timeoutMs: number;
  maxRetries: number;
}

type AiInput = Pick<
  Config,
  | "AI_PROVIDER"
  | "AI_BASE_URL"
  | "AI_API_KEY"
  | "AI_MODEL"
  | "OPENAI_API_KEY"
  | "GOOGLE_GENERATIVE_AI_API_KEY"
  | "AI_WORKFLOW_MODELS"
  | "AI_TIMEOUT_MS"
  | "AI_MAX_RETRIES"
>;

/**
 * Resolves the AI variables into model specs, collecting every mistake: half a provider is a
 * mistake, not a wish for the offline engine, so the service fails fast and says why.
 */
function resolveAi(config: AiInput): { settings: AiSettings; problems: { path: string; message: string }[] } {
  const problems: { path: string; message: string }[] = [];
  const provider: ProviderName = config.AI_PROVIDER ?? (config.AI_BASE_URL ? "openai-compatible" : "offline");
  if (!config.AI_PROVIDER && config.AI_MODEL && !config.AI_BASE_URL) {
    problems.push({
      path: "AI_PROVIDER",
      message: "required when AI_MODEL is set (openai, google or openai-compatible)",
    });
  }
  const keyOf = (name: ProviderName): string | undefined => {
    const own =
      name === "openai" ? config.OPENAI_API_KEY : name === "google" ? config.GOOGLE_GENERATIVE_AI_API_KEY : undefined;
    return own ?? (name === provider || name === "openai-compatible" ? config.AI_API_KEY : undefined);
  };
  const spec = (name: ProviderName, model: string | undefined, path: string): ModelSpec => {
    if (name === "offline") return { provider: "offline" };
    if (!model) {
      const variable = path === "AI_PROVIDER" ? "AI_MODEL" : "AI_WORKFLOW_MODELS";
      problems.push({ path: variable, message: `a model is required for the ${name} provider (${path})` });
    }
    const apiKey = keyOf(name);
    if (name !== "openai-compatible" && !apiKey) {
      const variable =
        name === provider ? "AI_API_KEY" : name === "openai" ? "OPENAI_API_KEY" : "GOOGLE_GENERATIVE_AI_API_KEY";
      problems.push({ path: variable, message: `required for the ${name} provider (${path})` });
    }
    if (name === "openai-compatible" && !config.AI_BASE_URL) {
      problems.push({ path: "AI_BASE_URL", message: `required for the openai-compatible provider (${path})` });
    }
    return {
      provider: name,
      model: model ?? "",
      ...(config.AI_BASE_URL ? { baseURL: config.AI_BASE_URL } : {}),
      ...(apiKey ? { apiKey } : {}),
    };
  };

  const settings: AiSettings = {
    default: provider === "offline" ? { provider: "offline" } : spec(provider, config.AI_MODEL, "AI_PROVIDER"),
    workflows: {},
    timeoutMs: config.AI_TIMEOUT_MS,
    maxRetries: config.AI_MAX_RETRIES,
  };
  for (const [workflow, value] of Object.entries(config.AI_WORKFLOW_MODELS ?? {})) {
    const [head, ...rest] = value.split(":");
    const named = (PROVIDERS as readonly string[]).includes(head!) ? (head as ProviderName) : undefined;
    const where = `AI_WORKFLOW_MODELS.${workflow}`;
    if (value === "offline") {
      settings.workflows[workflow] = { provider: "offline" };
    } else if (named) {
      settings.workflows[workflow] = spec(named, rest.join(":") || undefined, where);
    } else if (provider === "offline") {
      problems.push({ path: "AI_WORKFLOW_MODELS", message: `${workflow}: name the provider, e.g. "openai:${value}"` });
    } else {
      settings.workflows[workflow] = spec(provider, value, where);
    }
  }
  return { settings, problems };
}

/** The validated AI settings of a loaded config. */
export function aiSettings(config: Config): AiSettings {
  return resolveAi(config).settings;
}

/**
 * The ring that seals users' AI provider keys: SECRETS_KEYS when set, else AI_SETTINGS_KEY as key
 * `ai`; AI_SETTINGS_KEY also opens the keys it sealed before key ids existed (`v1`) and as `ai`.
 * undefined when neither is set (AI settings cannot be saved).
 */
export function aiKeyRing(config: {
  SECRETS_KEYS?: KeyRing | undefined;
  AI_SETTINGS_KEY?: Buffer | undefined;
}): KeyRing | undefined {
  const legacy = config.AI_SETTINGS_KEY;
  const ring = config.SECRETS_KEYS;
  if (!ring) return legacy ? keyRing([{ id: "ai", key: legacy }], legacy) : undefined;
  if (!legacy) return ring;
  const keys = [...ring.byId].map(([id, key]) => ({ id, key }));
  const sealing = keys.findIndex((k) => k.id === ring.sealing.id);
  keys.unshift(...keys.splice(sealing, 1));
  if (!ring.byId.has("ai")) keys.push({ id: "ai", key: legacy });
  return keyRing(keys, legacy);
}
