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
  });

export type Config = z.infer<typeof configSchema>;

/** The provider settings when one is configured, else undefined (the offline engine is used). */
export function aiProvider(config: Config): { baseURL: string; apiKey?: string; model: string } | undefined {
  if (!config.AI_BASE_URL || !config.AI_MODEL) return undefined;
  return { baseURL: config.AI_BASE_URL, apiKey: config.AI_API_KEY, model: config.AI_MODEL };
}
