import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type OutboxEntry, outboxEntry, TOPICS, topicName } from "@crafter/kit";
import {
  ConnectionNeedsReconnectingSchema,
  ShopifySyncRequestedSchema,
  ShopifyWebhookReceivedSchema,
} from "@crafter/proto/crafter/events/v1/connections_pb";

/**
 * The events the account service publishes, written to a document's outbox in the same update as
 * the change they describe (AccountUpdated and FlagsChanged of DESIGN.md section 3 come with the
 * features that change accounts and flags).
 */
export class ConnectionEvents {
  constructor(private readonly namespace: string) {}

  get topic(): string {
    return topicName(this.namespace, TOPICS.accountConnection);
  }

  /** The provider refused a connection's refresh; key `<project id>:<provider>`. */
  needsReconnecting(input: {
    connectionId: string;
    projectId: string;
    ownerUserId: string;
    provider: string;
    providerTitle: string;
    lastError: string;
    connectedAt: Date;
  }): OutboxEntry {
    return outboxEntry(this.topic, input.connectionId, ConnectionNeedsReconnectingSchema, {
      projectId: input.projectId,
      ownerUserId: input.ownerUserId,
      provider: input.provider,
      providerTitle: input.providerTitle,
      lastError: input.lastError,
      connectedAt: timestampFromDate(input.connectedAt),
    });
  }

  /** A project's Shopify store is to be imported in full (after the install, or "Sync now"); key `<project id>:shopify`. */
  shopifySyncRequested(input: {
    projectId: string;
    ownerUserId: string;
    shop: string;
    reason: "install" | "manual";
    at: Date;
  }): OutboxEntry {
    return outboxEntry(this.topic, `${input.projectId}:shopify`, ShopifySyncRequestedSchema, {
      projectId: input.projectId,
      ownerUserId: input.ownerUserId,
      shop: input.shop,
      reason: input.reason,
      requestedAt: timestampFromDate(input.at),
    });
  }

  /** A verified Shopify webhook's work for one project; key `<project id>:shopify`. */
  shopifyWebhookReceived(input: {
    projectId: string;
    ownerUserId: string;
    shop: string;
    topic: string;
    webhookId: string;
    resourceGid: string;
    customerEmail: string;
    customerPhone: string;
    at: Date;
  }): OutboxEntry {
    return outboxEntry(this.topic, `${input.projectId}:shopify`, ShopifyWebhookReceivedSchema, {
      projectId: input.projectId,
      ownerUserId: input.ownerUserId,
      shop: input.shop,
      topic: input.topic,
      webhookId: input.webhookId,
      resourceGid: input.resourceGid,
      customerEmail: input.customerEmail,
      customerPhone: input.customerPhone,
      receivedAt: timestampFromDate(input.at),
    });
  }
}
