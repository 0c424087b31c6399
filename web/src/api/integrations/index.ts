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

export const integrationKeys = {
  list: () => apiKey("/api/integrations"),
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
