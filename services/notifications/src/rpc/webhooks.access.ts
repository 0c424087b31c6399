import { rpcAccess } from "@crafter/kit";
import { WebhooksService } from "@crafter/proto/crafter/notifications/v1/webhooks_pb";

/**
 * Who may call each WebhooksService RPC: a user in a project their token reaches (the gateway lets
 * only its owner and project admins in, with a session or a personal API key).
 */
export const webhooksAccess = rpcAccess(WebhooksService, {
  listWebhookEndpoints: ["user"],
  createWebhookEndpoint: ["user"],
  updateWebhookEndpoint: ["user"],
  deleteWebhookEndpoint: ["user"],
  sendTestWebhook: ["user"],
  listWebhookDeliveries: ["user"],
  resendWebhookDelivery: ["user"],
  subscribeZapierHook: ["user"],
  unsubscribeZapierHook: ["user"],
  listRecentWebhookEvents: ["user"],
});
