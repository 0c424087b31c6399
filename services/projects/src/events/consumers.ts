import { on, type ServiceParts, TOPICS, topicName } from "@crafter/kit";
import {
  ShopifySyncRequestedSchema,
  ShopifyWebhookReceivedSchema,
} from "@crafter/proto/crafter/events/v1/connections_pb";
import { CraftCreatedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import type { ProjectsDeps } from "../deps";
import { countCraft } from "../usecases/count-craft";
import { importShopifyProducts, syncShopifyProduct } from "../usecases/shopify-products";

/**
 * The projects service's Kafka consumers: crafts are counted per project for the check-list; a
 * Shopify store's products become offerings (account's connection events).
 */
export function projectsConsumers(namespace: string, deps: ProjectsDeps): NonNullable<ServiceParts["consumers"]> {
  return {
    topics: [topicName(namespace, TOPICS.workflowsCraft), topicName(namespace, TOPICS.accountConnection)],
    handlers: [
      on(CraftCreatedSchema, (event) => countCraft(deps, event)),
      on(ShopifySyncRequestedSchema, async (event) => {
        await importShopifyProducts(deps, { projectId: event.projectId, ownerUserId: event.ownerUserId });
      }),
      on(ShopifyWebhookReceivedSchema, async (event) => {
        if (!event.topic.startsWith("products/") || !event.resourceGid.startsWith("gid://shopify/Product/")) return;
        await syncShopifyProduct(deps, {
          projectId: event.projectId,
          ownerUserId: event.ownerUserId,
          productGid: event.resourceGid,
          deleted: event.topic === "products/delete",
        });
      }),
    ],
  };
}
