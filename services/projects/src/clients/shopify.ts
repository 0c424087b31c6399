import { Code, ConnectError } from "@connectrpc/connect";
import {
  createServiceClient,
  type ProviderHttp,
  type ServiceCredentials,
  type ShopifyGraphqlOptions,
  shopifyGraphql,
} from "@crafter/kit";
import { IntegrationsService } from "@crafter/proto/crafter/account/v1/integrations_pb";

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
  /** Tells account what an import did (Settings › Integrations shows it). */
  report(projectId: string, imported: number, error: string): Promise<void>;
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
    async report(projectId, imported, error) {
      await client.reportSync({ projectId, provider: "shopify", part: "products", imported, error });
    },
  };
}
