import type { Logger, ShopifyStore } from "@crafter/kit";
import type { Delegations } from "./clients/delegations";
import type { DnsLookup } from "./clients/dns";
import type { BusinessTokens, GoogleBusinessApi } from "./clients/google-business";
import type { ProductImages } from "./clients/media";
import type { ProjectEvents } from "./events/publishers";
import type { ProjectsStores } from "./store";

/** What the projects use cases need; built once in main.ts. */
export interface ProjectsDeps {
  stores: ProjectsStores;
  /** Builders of the project events (`<ns>.projects.project.v1`). */
  events: ProjectEvents;
  /** Wakes the outbox relay after a write that pushed an event. */
  kick: () => void;
  logger: Logger;
  /** Auth's delegated tokens for team members (DelegateAccess). */
  delegations: Delegations;
  /** The DNS lookups of custom domains' checks (DNS_SERVERS). */
  dns: DnsLookup;
  customDomains: {
    /** The CNAME target a custom domain points at (CUSTOM_DOMAIN_TARGET). */
    target: string;
    /** The deployment's own host names, which no business may add. */
    platformHosts: string[];
  };
  /** The Google Business Profile APIs and the project's access token for them (account's connection). */
  google: { api: GoogleBusinessApi; tokens: BusinessTokens };
  /** The project's Shopify store (account's connection), whose products become offerings. */
  shopify: ShopifyStore;
  /** Product images copied into the media library. */
  productImages: ProductImages;
  now: () => Date;
}
