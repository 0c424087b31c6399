import { rpcAccess } from "@crafter/kit";
import { MediaService } from "@crafter/proto/crafter/media/v1/media_pb";

/** Who may call each MediaService RPC: a method without an entry is refused. */
export const access = rpcAccess(MediaService, {
  getMediaStatus: ["user"],
  uploadAsset: ["user"],
  listAssets: ["user"],
  getAsset: ["user"],
  renameAsset: ["user"],
  deleteAsset: ["user"],
  downloadAsset: ["user"],
  // Whoever holds a signed URL: the use case checks the signature and expiry.
  readFile: ["public"],
  publishAsset: ["user"],
  // Anyone: only assets their owner published are found.
  readPublicFile: ["public"],
  // A social post's image for Meta or TikTok to fetch (the publishing engine, naming the user).
  getProviderFileUrl: ["service:notifications"],
  // A Shopify product's image copied into the library (projects' product import, naming the user).
  importImage: ["service:projects"],
  previewEdit: ["user"],
  saveEdit: ["user"],
  exportAssets: ["user"],
  startUpload: ["user"],
  putUploadChunk: ["user"],
  getUpload: ["user"],
  completeUpload: ["user"],
  searchStock: ["user"],
  trackStockDownload: ["user"],
  // An ImageAppender step keeps a stock photo the user chose (workflows, on the user's behalf).
  importStock: ["user"],
  generateImage: ["user"],
  // The podcast's AudioGenerator step, run by the workflows engine for the user it names.
  generateSpeech: ["service:workflows"],
  listDesigns: ["user"],
  createDesign: ["user"],
  getDesign: ["user"],
  updateDesign: ["user"],
  deleteDesign: ["user"],
  exportDesign: ["user"],
  // A VisualDesigner craft step keeps its design's PNG (workflows, on the user's behalf).
  storeDesignAsset: ["user"],
});
