import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { WebhooksService } from "@crafter/proto/crafter/notifications/v1/webhooks_pb";
import {
  createEndpoint,
  deleteEndpoint,
  listDeliveries,
  listEndpoints,
  recentEvents,
  resendDelivery,
  sendTest,
  subscribeZapierHook,
  unsubscribeZapierHook,
  updateEndpoint,
  type WebhookDeps,
} from "../usecases/webhooks";

/** crafter.notifications.v1.WebhooksService: thin handlers; the use cases hold the logic. */
export function webhooksRoutes(deps: WebhookDeps): (router: ConnectRouter) => void {
  return (router) =>
    router.service(WebhooksService, {
      listWebhookEndpoints: async (req, ctx) => ({
        endpoints: await listEndpoints(deps, callerOf(ctx), req.projectId),
      }),
      createWebhookEndpoint: (req, ctx) =>
        createEndpoint(deps, callerOf(ctx), { projectId: req.projectId, url: req.url, events: req.events }),
      updateWebhookEndpoint: async (req, ctx) => ({ endpoint: await updateEndpoint(deps, callerOf(ctx), req) }),
      deleteWebhookEndpoint: async (req, ctx) => {
        await deleteEndpoint(deps, callerOf(ctx), req);
        return {};
      },
      sendTestWebhook: async (req, ctx) => ({ delivery: await sendTest(deps, callerOf(ctx), req) }),
      listWebhookDeliveries: (req, ctx) => listDeliveries(deps, callerOf(ctx), req),
      resendWebhookDelivery: async (req, ctx) => ({ delivery: await resendDelivery(deps, callerOf(ctx), req) }),
      subscribeZapierHook: (req, ctx) => subscribeZapierHook(deps, callerOf(ctx), req),
      unsubscribeZapierHook: async (req, ctx) => {
        await unsubscribeZapierHook(deps, callerOf(ctx), req);
        return {};
      },
      listRecentWebhookEvents: async (req, ctx) => ({ events: await recentEvents(deps, callerOf(ctx), req) }),
    });
}
