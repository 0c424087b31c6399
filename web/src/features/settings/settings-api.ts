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

/** The integrations of spec section 1, each gated by its flag (spec section 6). */
export const INTEGRATIONS: { key: string; name: string; flag: string; description: string }[] = [
  { key: "shopify", name: "Shopify store", flag: "shopify_integration", description: "Import products and customers." },
  { key: "google", name: "Google", flag: "google_integration", description: "Sign in and analytics." },
  {
    key: "google-business",
    name: "Google Business Profile",
    flag: "google_business_integration",
    description: "Reviews and your business listing.",
  },
  { key: "tiktok", name: "TikTok", flag: "tiktok_integration", description: "Publish short videos and ads." },
  { key: "meta", name: "Meta (Facebook, Instagram)", flag: "meta_integration", description: "Publish posts and ads." },
  {
    key: "email-provider",
    name: "Email sending provider",
    flag: "sendgrid_integration",
    description: "Send campaigns from your own domain.",
  },
  { key: "zapier", name: "Zapier", flag: "zapier_integration", description: "Connect thousands of apps." },
  {
    key: "custom-domain",
    name: "Custom domain",
    flag: "custom_domain_integration",
    description: "Publish web pages on your domain.",
  },
];
