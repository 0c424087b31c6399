import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { IntegrationsService } from "@crafter/proto/crafter/account/v1/integrations_pb";
import type { AccountDeps } from "../deps";
import type { ConnectionView } from "../domain/connections";
import {
  completeConnection,
  disconnect,
  getAccessToken,
  listIntegrations,
  startConnection,
} from "../usecases/integrations";

const connectionMessage = (view: ConnectionView) => ({
  state: view.state,
  remoteAccountId: view.remoteAccountId,
  remoteAccountName: view.remoteAccountName,
  scopes: view.scopes,
  connectedAt: timestampFromDate(view.connectedAt),
  ...(view.lastWorkedAt ? { lastWorkedAt: timestampFromDate(view.lastWorkedAt) } : {}),
  lastError: view.lastError,
});

/** crafter.account.v1.IntegrationsService (usecases/integrations.ts). */
export function integrationsRoutes(deps: AccountDeps): (router: ConnectRouter) => void {
  return (router) =>
    router.service(IntegrationsService, {
      async listIntegrations(req, ctx) {
        const integrations = await listIntegrations(deps, callerOf(ctx), req.projectId);
        return {
          integrations: integrations.map((item) => ({
            provider: item.provider,
            title: item.title,
            kind: item.kind,
            configured: item.configured,
            ...(item.connection ? { connection: connectionMessage(item.connection) } : {}),
          })),
        };
      },
      async startConnection(req, ctx) {
        return startConnection(deps, callerOf(ctx), {
          projectId: req.projectId,
          provider: req.provider,
          returnPath: req.returnPath,
        });
      },
      async completeConnection(req) {
        return completeConnection(deps, req);
      },
      async disconnect(req, ctx) {
        return disconnect(deps, callerOf(ctx), { projectId: req.projectId, provider: req.provider });
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
