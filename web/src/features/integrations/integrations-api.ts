import type { components } from "../../api/contract";

/** One integration as `GET /api/integrations` answers it (only those whose flag is on). */
export type Integration = components["schemas"]["Integration"];
export type IntegrationConnection = components["schemas"]["IntegrationConnection"];
export type VerifiedSenders = components["schemas"]["VerifiedSenders"];

/** The gateway paths of Settings › Integrations (the account service's IntegrationsService). */
export const integrationPaths = {
  list: "/api/integrations",
  connect: (provider: string) => `/api/integrations/${encodeURIComponent(provider)}/connect`,
  disconnect: (provider: string) => `/api/integrations/${encodeURIComponent(provider)}`,
  /** Connects an API-key provider (SendGrid): the key is checked and sealed. */
  apiKey: (provider: string) => `/api/integrations/${encodeURIComponent(provider)}/key`,
  /** The connected email provider's sender identities, a page at a time (`after`: the previous page's `next`). */
  senders: (provider: string, after = "") =>
    `/api/integrations/${encodeURIComponent(provider)}/senders${after ? `?after=${encodeURIComponent(after)}` : ""}`,
} as const;

/** Where the provider sends the browser back to (the callback redirects here with the outcome). */
export const INTEGRATIONS_PATH = "/app/settings/integrations";

/** What each integration does for the business (spec section 1). */
export const INTEGRATION_DESCRIPTIONS: Record<Integration["provider"], string> = {
  google: "Sign in with your Google account.",
  google_business: "Your Business Profile's reviews and listing.",
  meta: "Publish posts to your Facebook Pages and Instagram accounts.",
  tiktok: "Publish photo posts and videos to TikTok.",
  shopify: "Import products and customers from your store.",
  sendgrid: "Send campaigns through your own SendGrid account.",
  zapier: "Signed webhooks and Zapier triggers and actions.",
  custom_domain: "Publish pages and lead forms on your own domain.",
};

/** The sentence shown after the provider sent the browser back with `?error=<code>`. */
export function returnErrorMessage(code: string, title: string): string {
  switch (code) {
    case "access_denied":
      return `You did not allow Crafter to use ${title}. Connect again when you are ready.`;
    case "invalid_state":
      return "This connection attempt expired or was already finished. Please connect again.";
    case "provider_unreachable":
      return `${title} could not be reached. Please try again in a moment.`;
    case "not_configured":
      return `${title} is not configured on this server.`;
    default:
      return `${title} refused the connection (${code}). Please try again.`;
  }
}
