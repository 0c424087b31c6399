import type { ConnectRouter } from "@connectrpc/connect";
import { callerOf } from "@crafter/kit";
import { MediaService } from "@crafter/proto/crafter/media/v1/media_pb";
import type { MediaDeps } from "../deps";
import { PixelCache } from "../imaging/base-cache";
import { deleteAsset, getAsset, getMediaStatus, listAssets, renameAsset, uploadAsset } from "../usecases/assets";
import {
  createDesign,
  deleteDesign,
  exportDesign,
  getDesign,
  listDesigns,
  storeDesignAsset,
  updateDesign,
} from "../usecases/designs";
import { previewEdit, saveEdit } from "../usecases/edit-image";
import { exportAssets } from "../usecases/export-assets";
import { downloadAsset, publishAsset, readFile, readPublicFile } from "../usecases/files";
import { generateImage } from "../usecases/generate-image";
import { generateSpeech } from "../usecases/generate-speech";
import { importImage } from "../usecases/import-image";
import { getProviderFileUrl } from "../usecases/provider-file";
import { importStock, searchStock, trackStockDownload } from "../usecases/stock";
import { completeUpload, getUpload, putUploadChunk, startUpload } from "../usecases/video-upload";

/** Bytes of decoded preview bases kept in memory (see PixelCache). */
const PREVIEW_CACHE_BYTES = 96 * 1024 * 1024;

/** crafter.media.v1.MediaService: thin handlers; the use cases hold the logic. */
export function routes(deps: MediaDeps): (router: ConnectRouter) => void {
  const previews = new PixelCache(PREVIEW_CACHE_BYTES);
  return (router) =>
    router.service(MediaService, {
      getMediaStatus: (_req, ctx) => getMediaStatus(deps, callerOf(ctx)),
      uploadAsset: (req, ctx) => uploadAsset(deps, callerOf(ctx), req),
      listAssets: (req, ctx) => listAssets(deps, callerOf(ctx), req),
      getAsset: (req, ctx) => getAsset(deps, callerOf(ctx), req),
      renameAsset: (req, ctx) => renameAsset(deps, callerOf(ctx), req),
      deleteAsset: (req, ctx) => deleteAsset(deps, callerOf(ctx), req),
      downloadAsset: (req, ctx) => downloadAsset(deps, callerOf(ctx), req),
      readFile: (req, ctx) => readFile(deps, { signal: ctx.signal }, req),
      publishAsset: (req, ctx) => publishAsset(deps, callerOf(ctx), req),
      readPublicFile: (req, ctx) => readPublicFile(deps, { signal: ctx.signal }, req),
      getProviderFileUrl: (req) => getProviderFileUrl(deps, req),
      importImage: (req) => importImage(deps, req),
      previewEdit: (req, ctx) => previewEdit(deps, previews, callerOf(ctx), req),
      saveEdit: (req, ctx) => saveEdit(deps, callerOf(ctx), req),
      exportAssets: (req, ctx) => exportAssets(deps, callerOf(ctx), req),
      startUpload: (req, ctx) => startUpload(deps, callerOf(ctx), req),
      putUploadChunk: (req, ctx) => putUploadChunk(deps, callerOf(ctx), req),
      getUpload: (req, ctx) => getUpload(deps, callerOf(ctx), req),
      completeUpload: (req, ctx) => completeUpload(deps, callerOf(ctx), req),
      searchStock: (req, ctx) => searchStock(deps, callerOf(ctx), req),
      trackStockDownload: (req, ctx) => trackStockDownload(deps, callerOf(ctx), req),
      importStock: (req, ctx) => importStock(deps, callerOf(ctx), req),
      generateImage: (req, ctx) => generateImage(deps, callerOf(ctx), req),
      generateSpeech: (req, ctx) => generateSpeech(deps, callerOf(ctx), req),
      listDesigns: (req, ctx) => listDesigns(deps, callerOf(ctx), req),
      createDesign: (req, ctx) => createDesign(deps, callerOf(ctx), req),
      getDesign: (req, ctx) => getDesign(deps, callerOf(ctx), req),
      updateDesign: (req, ctx) => updateDesign(deps, callerOf(ctx), req),
      deleteDesign: (req, ctx) => deleteDesign(deps, callerOf(ctx), req),
      exportDesign: (req, ctx) => exportDesign(deps, callerOf(ctx), req),
      storeDesignAsset: (req, ctx) => storeDesignAsset(deps, callerOf(ctx), req),
    });
}
