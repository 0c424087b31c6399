/** The gateway paths and shapes of the settings sub-pages (issue 14). */
export const settingsPaths = {
  accountInfo: "/api/settings/account-info",
  password: "/api/settings/password",
  /** Asks to change the email (issue 14); the link then goes to `confirmEmail`. */
  email: "/api/settings/email",
  confirmEmail: "/auth/email/confirm",
  sessions: "/api/settings/sessions",
  session: (id: string) => `/api/settings/sessions/${encodeURIComponent(id)}`,
  ai: "/api/settings/ai",
  aiTest: "/api/settings/ai/test",
} as const;

/** The account's AI provider as `GET /api/settings/ai` shows it (never the key). */
export interface AiSettings {
  provider: "openai" | "google" | "openai-compatible";
  baseUrl: string;
  defaultModel: string;
  workflowModels: Record<string, string>;
  keySet: boolean;
  keyLast4: string;
  updatedAt: string | null;
}

export interface AiSettingsState {
  settings: AiSettings | null;
  /** False when the server cannot save settings (no AI_SETTINGS_KEY). */
  available: boolean;
}

export const PROVIDER_OPTIONS: { value: AiSettings["provider"]; label: string }[] = [
  { value: "openai", label: "OpenAI" },
  { value: "google", label: "Google (Gemini)" },
  { value: "openai-compatible", label: "OpenAI-compatible (Ollama, vLLM, LM Studio…)" },
];

/** One linked device as `GET /api/settings/sessions` lists it. */
export interface DeviceSession {
  id: string;
  deviceKind: "web" | "mobile" | "chrome";
  browser: string;
  os: string;
  place: string;
  createdAt: string | null;
  lastUsedAt: string | null;
  current: boolean;
}
