import { idField, modelOn, type Plain, TenantRepository } from "@crafter/kit";
import { type Connection, type Model, Schema } from "mongoose";

/**
 * A chunked video upload: an S3 multipart upload of `key`. Which chunks arrived is asked of the
 * object store (ListParts), so concurrent chunk PUTs never write this document.
 */
export interface UploadDoc {
  _id: string;
  userId: string;
  projectId: string;
  name: string;
  /** The MIME type the client declared; the first chunk's bytes must be a video. */
  mime: string;
  size: number;
  chunkSize: number;
  key: string;
  s3UploadId: string;
  /** Set once the first chunk's bytes were checked. */
  detectedMime?: string;
  /** The asset it became (set by complete). */
  assetId?: string;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export type Upload = Plain<UploadDoc>;

const uploadSchema = new Schema<UploadDoc>(
  {
    _id: idField,
    userId: { type: String, required: true },
    projectId: { type: String, default: "" },
    name: { type: String, required: true },
    mime: { type: String, required: true },
    size: { type: Number, required: true },
    chunkSize: { type: Number, required: true },
    key: { type: String, required: true },
    s3UploadId: { type: String, required: true },
    detectedMime: String,
    assetId: String,
    expiresAt: { type: Date, required: true },
  },
  { collection: "uploads", timestamps: true, versionKey: false },
);
uploadSchema.index({ userId: 1 });

export function uploadModel(connection: Connection): Model<UploadDoc> {
  return modelOn<UploadDoc>(connection, "Upload", uploadSchema);
}

export class UploadRepository extends TenantRepository<UploadDoc> {
  constructor(model: Model<UploadDoc>) {
    super(model, "userId");
  }

  set(
    userId: string,
    id: string,
    fields: Partial<Pick<UploadDoc, "detectedMime" | "assetId">>,
  ): Promise<Upload | null> {
    return this.update(userId, { _id: id }, { $set: fields });
  }
}
