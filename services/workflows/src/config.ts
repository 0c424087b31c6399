import { isIP } from "node:net";
import { baseConfigSchema } from "@crafter/kit";
import { z } from "zod";

/** An unset or blank variable is "not given" (so `AI_BASE_URL=` in a .env file means offline). */
const optionalString = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (typeof value === "string" && value.trim() === "" ? undefined : value), schema.optional());

export const configSchema = baseConfigSchema
  .extend({
    PORT: z.coerce.number().int().positive().default(50054),
    /** The projects service, asked for the profile a craft prefills from. */
    PROJECTS_URL: z.url().default("http://127.0.0.1:50053"),
    /** An OpenAI-compatible endpoint (OpenAI, Ollama, vLLM…), e.g. https://api.openai.com/v1. */
    AI_BASE_URL: optionalString(z.url()),
    AI_API_KEY: optionalString(z.string()),
    /** The model id sent to AI_BASE_URL, e.g. gpt-4o-mini or llama3.1. */
    AI_MODEL: optionalString(z.string()),
    /** Total time one generation may take, in ms. */
    AI_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
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
    WEBSITE_AUDIT_RESOLVE: z
      .string()
      .default("")
      .transform((text, ctx) => {
        const pins: Record<string, string> = {};
        for (const pair of text
          .split(",")
          .map((item) => item.trim())
          .filter(Boolean)) {
          const [host, ip] = pair.split("=").map((part) => part.trim());
          if (!host || !ip || isIP(ip) === 0) {
            ctx.addIssue({ code: "custom", message: `"${pair}" is not host=ip` });
            continue;
          }
          pins[host] = ip;
        }
        return pins;
      }),
    /** Keyword / competitor research provider (DataForSEO API base, e.g. https://api.dataforseo.com); unset = no data. */
    RESEARCH_PROVIDER_URL: optionalString(z.url()),
    RESEARCH_PROVIDER_LOGIN: optionalString(z.string()),
    RESEARCH_PROVIDER_PASSWORD: optionalString(z.string()),
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
    // Half a provider is a mistake, not a wish for the offline engine: fail fast and say so.
    if (config.AI_BASE_URL && !config.AI_MODEL) {
      ctx.addIssue({ code: "custom", path: ["AI_MODEL"], message: "required when AI_BASE_URL is set" });
    }
    if (config.AI_MODEL && !config.AI_BASE_URL) {
      ctx.addIssue({ code: "custom", path: ["AI_BASE_URL"], message: "required when AI_MODEL is set" });
    }
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

/** The provider settings when one is configured, else undefined (the offline engine is used). */
export function aiProvider(config: Config): { baseURL: string; apiKey?: string; model: string } | undefined {
  if (!config.AI_BASE_URL || !config.AI_MODEL) return undefined;
  return { baseURL: config.AI_BASE_URL, apiKey: config.AI_API_KEY, model: config.AI_MODEL };
}
