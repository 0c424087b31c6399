import { insertOnce, modelOn } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/**
 * A published asset: readable by anyone at `/media/public/<_id>`. `_id` is 16 random bytes
 * (base64url, 22 characters), so the URL cannot be guessed from the asset; one per asset (unique
 * `assetId`), never changed: unpublishing or deleting the asset removes it.
 */
export interface PublicFileDoc {
  _id: string;
  assetId: string;
  userId: string;
  /** The asset's object key and type when published (the file is read by key). */
  key: string;
  mime: string;
  createdAt: Date;
}

const schema = new Schema<PublicFileDoc>(
  {
    _id: String,
    assetId: { type: String, required: true, unique: true },
    userId: { type: String, required: true },
    key: { type: String, required: true },
    mime: { type: String, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: "public_files", versionKey: false },
);

/** Published assets; read by `_id` (every public request) or by the unique `assetId`. */
export class PublicFileRepository {
  constructor(readonly model: Model<PublicFileDoc>) {}

  /** Publishes once: @returns the asset's publication, the first one when two race. */
  async publish(doc: PublicFileDoc): Promise<PublicFileDoc> {
    if (await insertOnce(this.model, doc)) return doc;
    const existing = await this.model.findOne({ assetId: doc.assetId }).lean<PublicFileDoc>().exec();
    if (!existing) throw new Error("public file neither inserted nor found");
    return existing;
  }

  byId(id: string): Promise<PublicFileDoc | null> {
    return this.model.findById(id).lean<PublicFileDoc>().exec();
  }

  async removeAsset(assetId: string): Promise<void> {
    await this.model.deleteOne({ assetId }).exec();
  }
}

export function publicFileModel(connection: Connection): Model<PublicFileDoc> {
  return modelOn<PublicFileDoc>(connection, "PublicFile", schema);
}
