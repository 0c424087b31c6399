import { normaliseShopDomain } from "@crafter/validation";
import useSWR from "swr";
import { apiKey, fetcher, http } from "../api";
import type { ResultOf, Schema } from "../contract";

/**
 * Reads and writes of Settings › Integrations' Shopify store (the account service's
 * IntegrationsService), typed by the gateway's OpenAPI document. Keys are the URLs they are read
 * from (`apiKey`).
 */

export type Integration = Schema<"Integration">;
export type IntegrationSync = Schema<"IntegrationSync">;
export type SyncRequested = ResultOf<"/api/integrations/{provider}/sync", "post">;
export type CustomDomain = Schema<"CustomDomain">;
export type DnsRecord = CustomDomain["records"][number];
/** A page published from the project: where it answers (`/<slug>`, and on a verified custom domain). */
export type PageAddress = Schema<"PageAddress">;

export const integrationKeys = {
  list: () => apiKey("/api/integrations"),
  customDomain: (projectId: string) => apiKey("/api/projects/{id}/custom-domain", { path: { id: projectId } }),
  /** The active project's published pages (their addresses), newest first, at most 100. */
  pages: () => apiKey("/api/pages"),
};

/** The active project's integrations; `poll` refreshes them every 1.5 s (while an import runs). */
export function useIntegrations(poll = false) {
  return useSWR<Integration[]>(integrationKeys.list(), fetcher, { refreshInterval: poll ? 1500 : 0 });
}

/**
 * Why a typed store domain is not one (shown as the owner types), or null when it is.
 * @param suffix the server's store domain suffix (Integration.shopSuffix: myshopify.com).
 */
export function shopDomainProblem(typed: string, suffix: string): string | null {
  if (typed.trim() === "") return "Enter your store's domain";
  return normaliseShopDomain(typed, suffix || "myshopify.com")
    ? null
    : `Enter the domain Shopify gave your store, like your-store.${suffix || "myshopify.com"}`;
}

/** Starts installing on the store and leaves for Shopify's consent, coming back to `returnPath`. */
export async function installShopify(shop: string, returnPath: string): Promise<void> {
  const { authorizeUrl } = await http.post("/api/integrations/{provider}/connect", {
    path: { provider: "shopify" },
    body: { shop: shop.trim(), returnPath },
  });
  window.location.assign(authorizeUrl);
}

/** Sync now: the store's products and customers are imported again (in the background). */
export function syncShopify(): Promise<SyncRequested> {
  return http.post("/api/integrations/{provider}/sync", { path: { provider: "shopify" }, body: {} });
}

/** Disconnects the store: the app is uninstalled there and its access forgotten here. */
export function disconnectShopify() {
  return http.del("/api/integrations/{provider}", { path: { provider: "shopify" } });
}

/** The parts an import reports, in the order they are shown. */
export const SYNC_PARTS = [
  { part: "products", label: "Products", unit: "offerings" },
  { part: "customers", label: "Customers", unit: "contacts" },
] as const;

/**
 * How far a Sync now requested at `requestedAt` has got: the parts whose import finished since.
 * @returns the parts done (each with its sync) and whether all are.
 */
export function syncProgress(
  syncs: readonly IntegrationSync[],
  requestedAt: string | null,
): { done: IntegrationSync[]; complete: boolean } {
  const since = requestedAt ? Date.parse(requestedAt) : Number.NaN;
  const done = SYNC_PARTS.map(({ part }) => syncs.find((sync) => sync.part === part)).filter(
    (sync): sync is IntegrationSync =>
      sync !== undefined && !Number.isNaN(since) && Date.parse(sync.finishedAt ?? "") >= since,
  );
  return { done, complete: done.length === SYNC_PARTS.length };
}

/**
 * Starts connecting an OAuth provider and leaves for its consent screen; the provider sends the
 * browser back to `returnPath` with `?connected=<provider>` or `?error=<code>`.
 */
export async function connectIntegration(provider: string, returnPath: string): Promise<void> {
  const { authorizeUrl } = await http.post("/api/integrations/{provider}/connect", {
    path: { provider },
    body: { returnPath },
  });
  window.location.assign(authorizeUrl);
}

/** Disconnects: the grant is revoked at the provider where it offers revocation, then forgotten. */
export function disconnectIntegration(provider: string) {
  return http.del("/api/integrations/{provider}", { path: { provider } });
}

/**
 * The project's custom domain (the projects service; `customDomain` absent when none). With
 * `pollMs`, a domain not verified yet is read again that often (the server checks it on its own).
 */
export function useCustomDomain(projectId: string | null | undefined, pollMs = 0) {
  return useSWR<{ customDomain?: CustomDomain }>(projectId ? integrationKeys.customDomain(projectId) : null, fetcher, {
    refreshInterval: (data) => (data?.customDomain && data.customDomain.status !== "verified" ? pollMs : 0),
  });
}

/** The active project's published pages: the URLs its custom domain answers on. */
export function useProjectPages(enabled = true) {
  return useSWR<ResultOf<"/api/pages", "get">>(enabled ? integrationKeys.pages() : null, fetcher);
}

/**
 * Adds the project's custom domain: answers the DNS records to create.
 * @throws ApiError CUSTOM_DOMAIN_TAKEN (another project has it), CONFLICT (the project has one), 400 (not a domain).
 */
export function addCustomDomain(projectId: string, domain: string) {
  return http.post("/api/projects/{id}/custom-domain", { path: { id: projectId }, body: { domain } });
}

/** Checks the domain's DNS records now. */
export function checkCustomDomain(projectId: string) {
  return http.post("/api/projects/{id}/custom-domain/check", { path: { id: projectId }, body: {} });
}

/** Removes the project's custom domain: its pages stop being served there at once. */
export function removeCustomDomain(projectId: string) {
  return http.del("/api/projects/{id}/custom-domain", { path: { id: projectId } });
}
