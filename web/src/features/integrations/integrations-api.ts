import type { components, Schema } from "../../api/contract";

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

/**
 * A row's state on Settings › Integrations: connected (as whom), needs reconnecting (the provider
 * refused a refresh), not connected, or not configured on this server (no client id and secret).
 * Zapier's webhooks and a custom domain are set up in their own panels, which show their own state
 * (`managed`); a kind this dashboard does not know yet is `coming`.
 */
export type IntegrationState =
  | { state: "connected" | "needs_reconnecting"; connectedAs: string }
  | { state: "not_connected" | "not_configured" | "managed" | "coming" };

/** The kinds that connect through a connection of the account service (the others have their own panels). */
const CONNECTION_KINDS: ReadonlySet<string> = new Set(["oauth2", "shop_oauth", "api_key"]);
const PANEL_KINDS: ReadonlySet<string> = new Set(["webhooks", "domain"]);

export function integrationState(integration: Integration): IntegrationState {
  const { connection } = integration;
  if (connection)
    return {
      state: connection.state,
      connectedAs: connection.remoteAccountName || connection.remoteAccountId || "your account",
    };
  if (PANEL_KINDS.has(integration.kind)) return { state: "managed" };
  if (!CONNECTION_KINDS.has(integration.kind)) return { state: "coming" };
  return { state: integration.configured ? "not_connected" : "not_configured" };
}

/** A custom domain's state as its row shows it (its panel shows the records behind it). */
export const DOMAIN_STATUS: Record<Schema<"CustomDomain">["status"], { color: string; label: string }> = {
  verified: { color: "green", label: "Connected" },
  pending: { color: "orange", label: "Waiting for DNS records" },
  failing: { color: "red", label: "DNS records not found" },
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
    case "invalid_shop":
      return "That is not a Shopify store's domain. Enter it as your-store.myshopify.com.";
    case "invalid_hmac":
    case "invalid_request":
      return `${title} sent back an answer that could not be verified. Please connect again.`;
    case "insufficient_scope":
      return `${title} did not grant everything Crafter needs. Connect again and approve all the permissions.`;
    default:
      return `${title} refused the connection (${code}). Please try again.`;
  }
}
