import { timestampDate } from "@bufbuild/protobuf/wkt";
import { API_KEY_SCOPE_NAMES, appError } from "@crafter/kit";
import type { ApiKey } from "@crafter/proto/crafter/auth/v1/auth_pb";
import type { Request } from "express";
import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import type { RouteDeps } from "./deps";

/** POST /api/settings/apiKeys: a name and at least one scope (API_KEY_SCOPES). */
export const createApiKeyBody = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(80, "Name is too long"),
  scopes: z
    .array(z.enum(API_KEY_SCOPE_NAMES as [string, ...string[]], { error: "Unknown scope" }))
    .min(1, "Choose at least one scope"),
});

/** The :id of DELETE /api/settings/apiKeys/:id. */
export const apiKeyIdParams = z.object({ id: z.string().min(1).max(64) });

/** One key as listed; the secret is never part of it. Times are ISO strings, or null. */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  prefix: z.string(),
  createdAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});

/** GET result. */
export const apiKeyListResult = z.object({ apiKeys: z.array(apiKeySchema) });

/** POST result: the key's listing and the secret, shown this once. */
export const createdApiKeyResult = z.object({ apiKey: apiKeySchema, secret: z.string() });

const iso = (value: ApiKey["createdAt"]) => (value ? timestampDate(value).toISOString() : null);

function toApiKey(key: ApiKey | undefined): z.infer<typeof apiKeySchema> {
  return {
    id: key?.id ?? "",
    name: key?.name ?? "",
    scopes: key?.scopes ?? [],
    prefix: key?.prefix ?? "",
    createdAt: iso(key?.createdAt),
    lastUsedAt: iso(key?.lastUsedAt),
    revokedAt: iso(key?.revokedAt),
  };
}

/** Key management is for the browser session only: a request made with a key is refused here too. */
function refuseKeys(req: Request) {
  if (req.apiKey) throw appError("FORBIDDEN", "API keys cannot manage API keys.");
}

/**
 * /api/settings/apiKeys: the user's personal API keys (DESIGN section 4, "Third parties").
 * Session routes; a key never reaches them (requiredScope gives none), and auth checks again that
 * the token is a browser session's.
 */
export function apiKeyRoutes({ clients }: RouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/settings/apiKeys",
      tag: "settings",
      summary: "The user's personal API keys (never their secrets)",
      auth: "session",
      response: apiKeyListResult,
      handler: async ({ req, as }) => {
        refuseKeys(req);
        const { apiKeys } = await clients.auth.listApiKeys({}, as);
        return { apiKeys: apiKeys.map(toApiKey) };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/settings/apiKeys",
      tag: "settings",
      summary: "Create a personal API key with scopes; its secret is shown this once",
      auth: "session",
      body: createApiKeyBody,
      response: createdApiKeyResult,
      status: 201,
      errors: ["CONFLICT"],
      handler: async ({ req, body, as }) => {
        refuseKeys(req);
        const created = await clients.auth.createApiKey(body, as);
        return { apiKey: toApiKey(created.apiKey), secret: created.secret };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/settings/apiKeys/{id}",
      tag: "settings",
      summary: "Revoke a personal API key; its access tokens stop working at once",
      auth: "session",
      params: apiKeyIdParams,
      response: z.object({}),
      errors: ["NOT_FOUND"],
      handler: async ({ req, params, as }) => {
        refuseKeys(req);
        await clients.auth.revokeApiKey({ id: params.id }, as);
        return {};
      },
    }),
  ];
}
