import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { IntegrationsService } from "@crafter/proto/crafter/account/v1/integrations_pb";
import type { AccountDeps } from "../deps";
import type { ConnectionView } from "../domain/connections";
import { isProviderId, PROVIDERS } from "../domain/providers";
import {
  connectApiKey,
  disconnectApiKey,
  getWebhookKey,
  listVerifiedSenders,
  reportRefused,
} from "../usecases/api-key-connections";
import {
  completeConnection,
  disconnect,
  getAccessToken,
  type IntegrationView,
  listIntegrations,
  reportSync,
  startConnection,
  syncConnection,
} from "../usecases/integrations";
import { receiveShopifyWebhook } from "../usecases/shopify";

const connectionMessage = (view: ConnectionView) => ({
  state: view.state,
  remoteAccountId: view.remoteAccountId,
  remoteAccountName: view.remoteAccountName,
  scopes: view.scopes,
  connectedAt: timestampFromDate(view.connectedAt),
  ...(view.lastWorkedAt ? { lastWorkedAt: timestampFromDate(view.lastWorkedAt) } : {}),
  lastError: view.lastError,
  ...(view.webhook ? { webhook: view.webhook } : {}),
  syncs: view.syncs.map((sync) => ({
    part: sync.part,
    finishedAt: timestampFromDate(new Date(sync.finishedAt)),
    imported: sync.imported,
    error: sync.error,
  })),
});

const integrationMessage = (item: IntegrationView) => ({
  provider: item.provider,
  title: item.title,
  kind: item.kind,
  configured: item.configured,
  shopSuffix: item.shopSuffix,
  ...(item.connection ? { connection: connectionMessage(item.connection) } : {}),
});

/** crafter.account.v1.IntegrationsService (usecases/integrations.ts). */
export function integrationsRoutes(deps: AccountDeps): (router: ConnectRouter) => void {
  return (router) =>
    router.service(IntegrationsService, {
      async listIntegrations(req, ctx) {
        const integrations = await listIntegrations(deps, callerOf(ctx), req.projectId);
        return {
          integrations: integrations.map(integrationMessage),
        };
      },
      async startConnection(req, ctx) {
        return startConnection(deps, callerOf(ctx), {
          projectId: req.projectId,
          provider: req.provider,
          returnPath: req.returnPath,
          shop: req.shop,
        });
      },
      async completeConnection(req) {
        return completeConnection(deps, req);
      },
      async syncConnection(req, ctx) {
        const { requestedAt } = await syncConnection(deps, callerOf(ctx), {
          projectId: req.projectId,
          provider: req.provider,
        });
        return { requestedAt: timestampFromDate(requestedAt) };
      },
      async receiveShopifyWebhook(req) {
        return receiveShopifyWebhook(deps, {
          topic: req.topic,
          shopDomain: req.shopDomain,
          webhookId: req.webhookId,
          eventId: req.eventId,
          hmac: req.hmac,
          body: req.body,
        });
      },
      async reportSync(req, ctx) {
        await reportSync(deps, callerOf(ctx), req);
        return {};
      },
      async disconnect(req, ctx) {
        const input = { projectId: req.projectId, provider: req.provider };
        return isProviderId(req.provider) && PROVIDERS[req.provider].kind === "api_key"
          ? disconnectApiKey(deps, callerOf(ctx), input)
          : disconnect(deps, callerOf(ctx), input);
      },
      async connectApiKey(req, ctx) {
        const integration = await connectApiKey(deps, callerOf(ctx), {
          projectId: req.projectId,
          provider: req.provider,
          apiKey: req.apiKey,
        });
        return { integration: integrationMessage(integration) };
      },
      async listVerifiedSenders(req, ctx) {
        return listVerifiedSenders(deps, callerOf(ctx), {
          projectId: req.projectId,
          provider: req.provider,
          after: req.after,
        });
      },
      async reportRefused(req) {
        return { marked: await reportRefused(deps, req) };
      },
      async getWebhookKey(req) {
        return { publicKey: await getWebhookKey(deps, req) };
      },
      async getAccessToken(req) {
        const grant = await getAccessToken(deps, { projectId: req.projectId, provider: req.provider });
        return {
          accessToken: grant.accessToken,
          ...(grant.expiresAt ? { expiresAt: timestampFromDate(grant.expiresAt) } : {}),
          remoteAccountId: grant.remoteAccountId,
          scopes: grant.scopes,
        };
      },
    });
}
