/**
 * Scopes of personal API keys (DESIGN section 4, "Third parties"): what each lets a key do through
 * the gateway. A key never reaches /auth nor the settings routes that manage keys, whatever its scopes.
 */
export const API_KEY_SCOPES = {
  read: "Read everything the account can see: every GET under /api.",
  crafts: "Create, edit, run, rename, favourite and delete crafts: /api/workflowsV2.",
  projects: "Create projects and switch the active one: /api/projects.",
  settings: "Change user settings: /api/userSettings.",
  ai: "Use the AI tools (image prompts, the assistant chat).",
  zapier:
    "Zapier: subscribe and unsubscribe its REST Hooks (/api/zapier), add and update contacts (POST /api/contacts, PATCH /api/contacts/{id}).",
} as const;

export type ApiKeyScope = keyof typeof API_KEY_SCOPES;

export const API_KEY_SCOPE_NAMES = Object.keys(API_KEY_SCOPES) as ApiKeyScope[];

/** Every key starts with this, so the gateway tells a key from an access JWT (which never does). */
export const API_KEY_PREFIX = "crk_";

/** At most this many live keys per user. */
export const API_KEY_MAX_PER_USER = 20;

export function isApiKeyScope(value: string): value is ApiKeyScope {
  return Object.hasOwn(API_KEY_SCOPES, value);
}
