import type { Logger, ProviderHttp, Redis } from "@crafter/kit";
import type { CreditGrants } from "./clients/billing";
import type { ProjectRoles } from "./clients/projects";
import type { ConfiguredProvider, ProviderId, ShopifyApp } from "./domain/providers";
import type { ConnectionEvents } from "./events/publishers";
import type { AccountStores } from "./store";

/** What the account use cases need; built once in main.ts. */
export interface AccountDeps {
  stores: AccountStores;
  logger: Logger;
  now: () => Date;
  /** Billing's ledger, for admin grants. */
  grants: CreditGrants;
  /** Marks a user's cached gateway views stale (kit bumpViewVersion), after a change made for them. */
  changed: (userId: string) => Promise<void>;
  /** Integrations: their providers, calls to them, and the rules of connecting. */
  integrations: IntegrationsDeps;
}

/** What connecting, refreshing and disconnecting need. */
export interface IntegrationsDeps {
  providers: ReadonlyMap<ProviderId, ConfiguredProvider>;
  /** The Shopify app (per-shop grant), when configured on this server. */
  shopify: ShopifyApp | undefined;
  /** Where Shopify sends webhooks: `<webhookOrigin>/api/integrations/shopify/webhooks` ("" = publicOrigin). */
  webhookOrigin: string;
  /** Every provider call, through the kit's outbound module. */
  http: ProviderHttp;
  /** The caller's role on a project (projects' ListProjects with the caller's token). */
  projects: ProjectRoles;
  /** HMAC key of the connect state. */
  stateSecret: string;
  /** `<PUBLIC_ORIGIN>`; the callback is `<publicOrigin>/api/integrations/<provider>/callback`. */
  publicOrigin: string;
  attemptMs: number;
  refreshMarginMs: number;
  redis: Redis;
  /** ConnectionNeedsReconnecting's builder, and the relay's wake-up after writing one. */
  events: ConnectionEvents;
  kick: () => void;
  /** SendGrid's v3 API (https://api.sendgrid.com; the tests' local server). */
  sendgridBaseUrl: string;
  /** The feature flags of a user, to hide and refuse integrations whose flag is off. */
  flagsOf: (userId: string) => Promise<ReadonlySet<string>>;
}
