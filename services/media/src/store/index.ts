import type { Connection, Model } from "mongoose";
import { type AssetDoc, AssetRepository, assetModel } from "./asset.repository";
import { DesignRepository, designModel } from "./design.repository";
import { PublicFileRepository, publicFileModel } from "./public-file.repository";
import { UploadRepository, uploadModel } from "./upload.repository";

/** Every repository of the media service, over its own database. */
export interface MediaStores {
  assets: AssetRepository;
  uploads: UploadRepository;
  designs: DesignRepository;
  /** Assets published at a lasting public URL (a business logo). */
  publicFiles: PublicFileRepository;
  /** Models whose documents carry an outbox (relayed to Kafka by the kit). */
  outbox: Model<AssetDoc>[];
}

/** Builds the repositories and waits until their indexes exist. */
export async function createStores(connection: Connection): Promise<MediaStores> {
  const assets = assetModel(connection);
  const uploads = uploadModel(connection);
  const designs = designModel(connection);
  const publicFiles = publicFileModel(connection);
  await Promise.all([assets.init(), uploads.init(), designs.init(), publicFiles.init()]);
  return {
    assets: new AssetRepository(assets),
    uploads: new UploadRepository(uploads),
    designs: new DesignRepository(designs),
    publicFiles: new PublicFileRepository(publicFiles),
    outbox: [assets],
  };
}
