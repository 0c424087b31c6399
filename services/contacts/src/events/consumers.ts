import { on, type ServiceParts, TOPICS, topicName } from "@crafter/kit";
import {
  ShopifySyncRequestedSchema,
  ShopifyWebhookReceivedSchema,
} from "@crafter/proto/crafter/events/v1/connections_pb";
import type { ContactsDeps } from "../deps";
import { importShopifyCustomers, syncShopifyCustomer } from "../usecases/shopify-customers";

/** Customer topics whose work is done here; the rest (products/*, app/uninstalled) are other services'. */
const CUSTOMER_TOPICS = new Set([
  "customers/create",
  "customers/update",
  "customers/delete",
  "customers/redact",
  "shop/redact",
]);

/**
 * The contacts service's Kafka consumers: a Shopify store's customers become contacts (account's
 * connection events: the full import on install and Sync now, one customer per webhook).
 */
export function contactsConsumers(namespace: string, deps: ContactsDeps): ServiceParts["consumers"] {
  return {
    topics: [topicName(namespace, TOPICS.accountConnection)],
    handlers: [
      on(ShopifySyncRequestedSchema, async (event) => {
        await importShopifyCustomers(deps, { projectId: event.projectId, ownerUserId: event.ownerUserId });
      }),
      on(ShopifyWebhookReceivedSchema, async (event) => {
        if (!CUSTOMER_TOPICS.has(event.topic)) return;
        await syncShopifyCustomer(deps, {
          projectId: event.projectId,
          ownerUserId: event.ownerUserId,
          topic: event.topic,
          customerGid: event.resourceGid,
        });
      }),
    ],
  };
}
