import { idField, modelOn, type OutboxEntry, outboxField, type Plain, TenantRepository } from "@crafter/kit";
import type { AssetSource, AssetType } from "@crafter/media-language";
import { type Connection, type Model, Schema } from "mongoose";

/** A stored rendition of an asset (thumbnail or responsive variant). */
export interface RenditionDoc {
  name: string;
  key: string;
  width: number;
  height: number;
}

/**
 * An asset of one user: its file in object storage (`key`) and its renditions. Deleting marks it
 * `deleted` with the AssetDeleted event in the same write (the outbox lives in the document), then
 * removes the files; lists filter `deleted: false` by equality.
 */
export interface AssetDoc {
  _id: string;
  userId: string;
  projectId: string;
  type: AssetType;
  source: AssetSource;
  name: string;
  /** Lower-case words of the name: `q` matches them by equality (no `$regex` on FerretDB). */
  nameTokens: string[];
  mime: string;
  size: number;
  width?: number;
  height?: number;
  durationMs?: number;
  key: string;
  thumbnail?: RenditionDoc;
  variants: RenditionDoc[];
  profileType?: string;
  profileIds: string[];
  label: string;
  deleted: boolean;
  outbox: OutboxEntry[];
  createdAt: Date;
  updatedAt: Date;
}

export type Asset = Plain<AssetDoc>;

const renditionSchema = new Schema<RenditionDoc>(
  { name: String, key: String, width: Number, height: Number },
  { _id: false },
);

const assetSchema = new Schema<AssetDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    type: { type: String, required: true },
    source: { type: String, required: true },
    name: { type: String, required: true },
    nameTokens: { type: [String], default: [] },
    mime: { type: String, required: true },
    size: { type: Number, required: true },
    width: Number,
    height: Number,
    durationMs: Number,
    key: { type: String, required: true },
    thumbnail: { type: renditionSchema, default: undefined },
    variants: { type: [renditionSchema], default: [] },
    profileType: String,
    profileIds: { type: [String], default: [] },
    label: { type: String, default: "" },
    deleted: { type: Boolean, default: false },
    outbox: outboxField,
  },
  { collection: "assets", timestamps: true, versionKey: false },
);
assetSchema.index({ userId: 1, deleted: 1, type: 1 });

export function assetModel(connection: Connection): Model<AssetDoc> {
  return modelOn<AssetDoc>(connection, "Asset", assetSchema);
}

export interface AssetFilter {
  type?: string;
  source?: string;
  profileType?: string;
  profileIds?: string[];
  tokens?: string[];
}

/** Assets, always within their owner. */
export class AssetRepository extends TenantRepository<AssetDoc> {
  constructor(model: Model<AssetDoc>) {
    super(model, "userId");
  }

  /** Live assets of the user matching the filter, newest first. Every filter is an equality. */
  page(userId: string, filter: AssetFilter, page: number, pageSize: number) {
    const query: Record<string, unknown> = { deleted: false };
    if (filter.type) query.type = filter.type;
    if (filter.source) query.source = filter.source;
    if (filter.profileType) query.profileType = filter.profileType;
    // Several profile ids: an asset of any of them (`$all` of one id stays an equality on the array).
    if (filter.profileIds?.length === 1) query.profileIds = filter.profileIds[0];
    else if (filter.profileIds && filter.profileIds.length > 1) query.profileIds = { $in: filter.profileIds };
    if (filter.tokens?.length) query.nameTokens = { $all: filter.tokens };
    return this.list(userId, query, { page, pageSize, sort: { createdAt: -1, _id: 1 } });
  }

  /** A live asset of the user, or null. */
  live(userId: string, id: string): Promise<Asset | null> {
    return this.findOne(userId, { _id: id, deleted: false });
  }

  rename(userId: string, id: string, name: string, tokens: string[]): Promise<Asset | null> {
    return this.update(userId, { _id: id, deleted: false }, { $set: { name, nameTokens: tokens } });
  }

  /** Marks the asset deleted with its AssetDeleted event; null when it was not live. */
  markDeleted(userId: string, id: string, event: OutboxEntry): Promise<Asset | null> {
    return this.update(userId, { _id: id, deleted: false }, { $set: { deleted: true }, $push: { outbox: event } });
  }

  countLive(userId: string): Promise<number> {
    return this.count(userId, { deleted: false });
  }
}
