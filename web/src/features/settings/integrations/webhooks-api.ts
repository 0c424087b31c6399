import type { WebhookEventType } from "@crafter/validation";
import { apiKey, http } from "../../../api/api";
import type { components } from "../../../api/contract";

/** An endpoint as `GET /api/integrations/webhooks` lists it (never its secret). */
export type WebhookEndpoint = components["schemas"]["WebhookEndpoint"];
/** One line of an endpoint's delivery log. */
export type WebhookDelivery = components["schemas"]["WebhookDelivery"];

/** The SWR keys of the webhooks panel (the active project's). */
export const webhookKeys = {
  endpoints: () => apiKey("/api/integrations/webhooks"),
  deliveries: (endpointId: string, page: number) =>
    apiKey("/api/integrations/webhooks/{endpointId}/deliveries", {
      path: { endpointId },
      query: { page, pageSize: 10 },
    }),
  /** Every page of one endpoint's log (to revalidate after a resend or a test event). */
  anyDeliveries: (endpointId: string) => (key: unknown) =>
    typeof key === "string" &&
    key.startsWith(`/api/integrations/webhooks/${encodeURIComponent(endpointId)}/deliveries`),
};

export const webhooksApi = {
  create: (url: string, events: WebhookEventType[]) =>
    http.post("/api/integrations/webhooks", { body: { url, events } }),
  setEnabled: (endpointId: string, enabled: boolean) =>
    http.put("/api/integrations/webhooks/{endpointId}", { path: { endpointId }, body: { enabled, events: [] } }),
  remove: (endpointId: string) => http.del("/api/integrations/webhooks/{endpointId}", { path: { endpointId } }),
  test: (endpointId: string) =>
    http.post("/api/integrations/webhooks/{endpointId}/test", { path: { endpointId }, body: {} }),
  resend: (endpointId: string, deliveryId: string) =>
    http.post("/api/integrations/webhooks/{endpointId}/deliveries/{deliveryId}/resend", {
      path: { endpointId, deliveryId },
      body: {},
    }),
};
