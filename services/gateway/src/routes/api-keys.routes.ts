import { timestampDate } from "@bufbuild/protobuf/wkt";
import { API_KEY_SCOPE_NAMES, appError } from "@crafter/kit";
import type { ApiKey } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { type Request, Router } from "express";
import { z } from "zod";
import type { Clients } from "../clients";
import { ok, parseBody } from "../http/envelope";
import { asUser } from "../http/session";

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
 * Mounted behind requireSession; auth checks again that the token is a browser session's.
 */
export function apiKeyRoutes(clients: Clients): Router {
  const router = Router();

  router.get("/", async (req, res) => {
    refuseKeys(req);
    const { apiKeys } = await clients.auth.listApiKeys({}, asUser(req));
    ok(res, { apiKeys: apiKeys.map(toApiKey) });
  });

  router.post("/", async (req, res) => {
    refuseKeys(req);
    const body = parseBody(createApiKeyBody, req.body);
    const created = await clients.auth.createApiKey(body, asUser(req));
    ok(res, { apiKey: toApiKey(created.apiKey), secret: created.secret }, 201);
  });

  router.delete("/:id", async (req, res) => {
    refuseKeys(req);
    const { id } = parseBody(apiKeyIdParams, req.params);
    await clients.auth.revokeApiKey({ id }, asUser(req));
    ok(res, {});
  });

  return router;
}
