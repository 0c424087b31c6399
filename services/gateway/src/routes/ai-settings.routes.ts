import { timestampDate } from "@bufbuild/protobuf/wkt";
import { appError } from "@crafter/kit";
import type { Request } from "express";
import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import type { RouteDeps } from "./deps";

/** The saved settings as the page sees them: the key only as `keySet` and its last 4 characters. */
export const aiSettingsSchema = z.object({
  provider: z.enum(["openai", "google", "openai-compatible"]),
  baseUrl: z.string(),
  defaultModel: z.string(),
  workflowModels: z.record(z.string(), z.string()),
  keySet: z.boolean(),
  keyLast4: z.string(),
  updatedAt: z.string().nullable(),
});

const provider = z.enum(["openai", "google", "openai-compatible"], {
  error: "Choose OpenAI, Google or an OpenAI-compatible endpoint.",
});
const baseUrl = z.string({ error: "baseUrl must be text" }).max(2048, "The address is too long").default("");
const apiKey = z.string({ error: "apiKey must be text" }).max(500, "This does not look like an API key.").default("");
/** A model id as the workflows service takes it (domain/ai-settings.ts MODEL). */
const model = z
  .string({ error: "Enter the model's id" })
  .max(120, "The model id is too long")
  .regex(/^[A-Za-z0-9_.:/@+-]{1,120}$/, "Enter the model's id, e.g. gpt-4o-mini or llama3.1.");
/** A workflow's own model: a model id, or "" for the default model. */
const workflowModel = z
  .string({ error: "Enter the model's id" })
  .regex(/^[A-Za-z0-9_.:/@+-]{0,120}$/, "Enter the model's id.");

export const saveAiSettingsBody = z
  .object({
    provider,
    baseUrl,
    defaultModel: model,
    workflowModels: z
      .record(z.string().max(80), workflowModel, { error: "workflowModels maps workflow names to model ids" })
      .default({}),
    /** Empty keeps the saved key. */
    apiKey,
  })
  .strict();

export const testAiConnectionBody = z.object({ provider, baseUrl, model, apiKey }).strict();

/** Provider keys are a browser session's business: a request made with an API key is refused. */
function refuseKeys(req: Request) {
  if (req.apiKey) throw appError("FORBIDDEN", "API keys cannot read or change the AI settings.");
}

type SettingsMessage = {
  provider: string;
  baseUrl: string;
  defaultModel: string;
  workflowModels: Record<string, string>;
  keySet: boolean;
  keyLast4: string;
  updatedAt?: Parameters<typeof timestampDate>[0];
};

function toSettings(message: SettingsMessage): z.infer<typeof aiSettingsSchema> {
  return {
    provider: message.provider as z.infer<typeof provider>,
    baseUrl: message.baseUrl,
    defaultModel: message.defaultModel,
    workflowModels: { ...message.workflowModels },
    keySet: message.keySet,
    keyLast4: message.keyLast4,
    updatedAt: message.updatedAt ? timestampDate(message.updatedAt).toISOString() : null,
  };
}

/**
 * /api/settings/ai: the account's own AI provider, key and models (issue 12), for owners and
 * admins (the workflows service checks the role). The key goes in, never out.
 */
export function aiSettingsRoutes({ clients }: RouteDeps): RouteDef[] {
  const { workflows } = clients;
  return [
    defineRoute({
      method: "get",
      path: "/api/settings/ai",
      tag: "settings",
      summary: "The account's AI provider settings (the key only as set / last 4 characters)",
      auth: "session",
      response: z.object({ settings: aiSettingsSchema.nullable(), available: z.boolean() }),
      errors: ["FORBIDDEN"],
      handler: async ({ req, as }) => {
        refuseKeys(req);
        const answer = await workflows.getAiSettings({}, as);
        return { settings: answer.settings ? toSettings(answer.settings) : null, available: answer.available };
      },
    }),
    defineRoute({
      method: "put",
      path: "/api/settings/ai",
      tag: "settings",
      summary: "Save the provider, base URL, models and (optionally) a new key",
      auth: "session",
      body: saveAiSettingsBody,
      response: aiSettingsSchema,
      errors: ["FORBIDDEN", "UNAVAILABLE"],
      handler: async ({ req, body, as }) => {
        refuseKeys(req);
        const answer = await workflows.saveAiSettings(body, as);
        return toSettings(answer.settings!);
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/settings/ai",
      tag: "settings",
      summary: "Remove the AI settings: the server's default engine writes again",
      auth: "session",
      response: z.object({ deleted: z.literal(true) }),
      errors: ["FORBIDDEN"],
      handler: async ({ req, as }) => {
        refuseKeys(req);
        await workflows.deleteAiSettings({}, as);
        return { deleted: true as const };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/settings/ai/test",
      tag: "settings",
      summary: "Test connection: one small real call; a failure is reported in plain words (ok: false)",
      description: "At most 10 tests per user in 10 minutes (RATE_LIMITED, 429 with Retry-After).",
      auth: "session",
      body: testAiConnectionBody,
      response: z.object({ ok: z.boolean(), message: z.string(), latencyMs: z.number() }),
      errors: ["FORBIDDEN", "RATE_LIMITED"],
      handler: async ({ req, body, as }) => {
        refuseKeys(req);
        return workflows.testAiConnection(body, { ...as, timeoutMs: 30_000 });
      },
    }),
  ];
}
