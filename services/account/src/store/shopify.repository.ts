import {
  isDuplicateKey,
  modelOn,
  type OutboxEntry,
  outboxField,
  outboxMinuteField,
  outboxMinuteOf,
} from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/**
 * A webhook Shopify sent, recorded once: `_id` is its `X-Shopify-Webhook-Id`, so a redelivery's
 * insert fails on the unique `_id` and changes nothing. The events of its work ride in the same
 * insert (the outbox), so a receipt is never recorded without them. Append-only.
 */
export interface ShopifyWebhookDoc {
  _id: string;
  shop: string;
  topic: string;
  eventId: string;
  receivedAt: Date;
  outbox: OutboxEntry[];
  outboxMinute?: number;
}

const webhookSchema = new Schema<ShopifyWebhookDoc>(
  {
    _id: { type: String, required: true },
    shop: { type: String, required: true },
    topic: { type: String, required: true },
    eventId: { type: String, default: "" },
    receivedAt: { type: Date, required: true },
    outbox: outboxField,
    outboxMinute: outboxMinuteField,
  },
  { collection: "shopify_webhooks", versionKey: false },
);

/**
 * Which projects a shop was installed in: `_id` `<shop>|<projectId>`, written at each install and
 * kept after an uninstall, because Shopify's `shop/redact` comes 48 hours after it and must still
 * reach the project whose data it erases.
 */
export interface ShopifyInstallDoc {
  _id: string;
  shop: string;
  projectId: string;
  ownerUserId: string;
  installedAt: Date;
}

const installSchema = new Schema<ShopifyInstallDoc>(
  {
    _id: { type: String, required: true },
    shop: { type: String, required: true, index: true },
    projectId: { type: String, required: true },
    ownerUserId: { type: String, required: true },
    installedAt: { type: Date, required: true },
  },
  { collection: "shopify_installs", versionKey: false },
);

export function shopifyWebhookModel(connection: Connection): Model<ShopifyWebhookDoc> {
  return modelOn<ShopifyWebhookDoc>(connection, "ShopifyWebhook", webhookSchema);
}

export function shopifyInstallModel(connection: Connection): Model<ShopifyInstallDoc> {
  return modelOn<ShopifyInstallDoc>(connection, "ShopifyInstall", installSchema);
}

export class ShopifyRepository {
  constructor(
    readonly webhooks: Model<ShopifyWebhookDoc>,
    readonly installs: Model<ShopifyInstallDoc>,
  ) {}

  /** Records an install of `shop` in a project (again on a reinstall: same `_id`). */
  async installed(input: { shop: string; projectId: string; ownerUserId: string; at: Date }): Promise<void> {
    await this.installs.updateOne(
      { _id: `${input.shop}|${input.projectId}` },
      { $set: { shop: input.shop, projectId: input.projectId, ownerUserId: input.ownerUserId, installedAt: input.at } },
      { upsert: true },
    );
  }

  /** The projects `shop` was ever installed in. */
  async installsOf(shop: string): Promise<ShopifyInstallDoc[]> {
    return this.installs.find({ shop }).lean<ShopifyInstallDoc[]>();
  }

  /** Forgets a shop's installs (after `shop/redact`). */
  async forget(shop: string): Promise<void> {
    await this.installs.deleteMany({ shop });
  }

  /**
   * Records a webhook with its events, once.
   * @returns false when its id was recorded before (a redelivery): nothing was written.
   */
  async receive(input: {
    webhookId: string;
    shop: string;
    topic: string;
    eventId: string;
    at: Date;
    events: OutboxEntry[];
  }): Promise<boolean> {
    try {
      await this.webhooks.create({
        _id: input.webhookId,
        shop: input.shop,
        topic: input.topic,
        eventId: input.eventId,
        receivedAt: input.at,
        outbox: input.events,
        ...(input.events.length > 0 ? { outboxMinute: outboxMinuteOf(input.at) } : {}),
      });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }
}
