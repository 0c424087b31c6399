import type { ApiKeyScope } from "@crafter/kit";

/** Paths a personal API key never reaches, whatever its scopes: the routes that manage keys. */
export const KEY_MANAGEMENT_PATH = "/api/settings/apiKeys";

/**
 * The scope a personal API key needs for a request (documented list: API_KEY_SCOPES in the kit):
 * - every GET/HEAD under /api: `read`;
 * - writes under /api/workflowsV2: `crafts`; /api/projects, /api/profiles and /api/business: `projects`;
 *   /api/userSettings: `settings`; the AI tools (/api/profiles/profileImagePromptWriter,
 *   /api/smartDocument, /api/assistant): `ai`; /api/zapier, a new contact (POST /api/contacts) and
 *   a contact's changes (PATCH /api/contacts/{id}): `zapier`.
 * @returns null when no key may make the request (key management; writes not in the list).
 */
export function requiredScope(method: string, path: string): ApiKeyScope | null {
  if (path === KEY_MANAGEMENT_PATH || path.startsWith(`${KEY_MANAGEMENT_PATH}/`)) return null;
  if (method === "GET" || method === "HEAD") return "read";
  if (path.startsWith("/api/workflowsV2")) return "crafts";
  if (path.startsWith("/api/projects")) return "projects";
  if (path.startsWith("/api/userSettings")) return "settings";
  if (path === "/api/zapier" || path.startsWith("/api/zapier/")) return "zapier";
  if ((method === "POST" && path === "/api/contacts") || (method === "PATCH" && /^\/api\/contacts\/[^/]+$/.test(path)))
    return "zapier";
  if (
    ["/api/profiles/profileImagePromptWriter", "/api/smartDocument/", "/api/assistant/"].some((p) => path.startsWith(p))
  )
    return "ai";
  if (["/api/profiles", "/api/business"].some((prefix) => path === prefix || path.startsWith(`${prefix}/`)))
    return "projects";
  return null;
}
