import { Code, ConnectError } from "@connectrpc/connect";
import { IntegrationsService } from "@crafter/proto/crafter/account/v1/integrations_pb";
import { createServiceClient } from "../rpc/client";
import type { ServiceCredentials } from "../rpc/identity";
import type { ProviderHttp } from "./provider-http";
import { type ShopifyGraphqlOptions, shopifyGraphql } from "./shopify";

// A project's Shopify store as the services that import from it see it (projects: products;
// contacts: customers): the grant through account's connection, Admin GraphQL calls, and the
// import's outcome reported back to account for Settings › Integrations.

/** A project's Shopify grant: the shop and its offline token (account's connection). */
export interface ShopGrant {
  shop: string;
  accessToken: string;
}

/** The project's Shopify store, through account's connection. */
export interface ShopifyStore {
  /** The grant; null when the store is not connected (or needs reconnecting). */
  grant(projectId: string): Promise<ShopGrant | null>;
  /** One Admin GraphQL call (waits out THROTTLED). @throws ShopifyApiError, OutboundError. */
  query<T>(grant: ShopGrant, query: string, variables: Record<string, unknown>): Promise<T>;
  /**
   * Tells account what an import of `part` (products | customers) did, shown in Settings ›
   * Integrations; `error` "" when it finished.
   */
  report(projectId: string, part: "products" | "customers", imported: number, error: string): Promise<void>;
}

export function shopifyStore(options: {
  accountUrl: string;
  timeoutMs: number;
  credentials: ServiceCredentials;
  http: ProviderHttp;
  adminOrigin: string;
  graphql?: ShopifyGraphqlOptions;
}): ShopifyStore {
  const client = createServiceClient(IntegrationsService, options.accountUrl, {
    timeoutMs: options.timeoutMs,
    as: "service",
    credentials: options.credentials,
  });
  return {
    async grant(projectId) {
      try {
        const answer = await client.getAccessToken({ projectId, provider: "shopify" });
        return { shop: answer.remoteAccountId, accessToken: answer.accessToken };
      } catch (error) {
        if (
          error instanceof ConnectError &&
          [Code.NotFound, Code.AlreadyExists, Code.Aborted, Code.FailedPrecondition].includes(error.code)
        )
          return null;
        throw error;
      }
    },
    async query<T>(grant: ShopGrant, query: string, variables: Record<string, unknown>) {
      const { data } = await shopifyGraphql<T>(
        options.http,
        { adminOrigin: options.adminOrigin, shop: grant.shop },
        grant.accessToken,
        query,
        variables,
        options.graphql,
      );
      return data;
    },
    async report(projectId, part, imported, error) {
      await client.reportSync({ projectId, provider: "shopify", part, imported, error });
    },
  };
}
