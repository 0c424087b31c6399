import { type OutboxEntry, outboxEntry, TOPICS, topicName } from "@crafter/kit";
import { AssetCreatedSchema, AssetDeletedSchema } from "@crafter/proto/crafter/events/v1/media_pb";
import type { AssetDoc } from "../store/asset.repository";

type AssetFacts = Pick<AssetDoc, "_id" | "userId" | "projectId" | "type" | "source" | "mime" | "size">;

/** Builds the events of the asset aggregate (topic `<ns>.media.asset.v1`, key = asset id), as outbox entries. */
export class MediaEvents {
  readonly topic: string;
  /** The full names of the topics it publishes (`<namespace>.<name>`). */
  readonly topics: string[];

  constructor(readonly namespace: string) {
    this.topic = topicName(namespace, TOPICS.mediaAsset);
    this.topics = [this.topic];
  }

  assetCreated(asset: AssetFacts): OutboxEntry {
    return outboxEntry(this.topic, asset._id, AssetCreatedSchema, {
      userId: asset.userId,
      assetId: asset._id,
      projectId: asset.projectId,
      type: asset.type,
      source: asset.source,
      mime: asset.mime,
      size: BigInt(asset.size),
    });
  }

  assetDeleted(asset: { id: string; userId: string; projectId: string }): OutboxEntry {
    return outboxEntry(this.topic, asset.id, AssetDeletedSchema, {
      userId: asset.userId,
      assetId: asset.id,
      projectId: asset.projectId,
    });
  }
}
