import { appError, type Caller, isDuplicateKey } from "@crafter/kit";
import { fileTypeFromBuffer } from "file-type";
import type { MediaDeps } from "../deps";
import { STOCK_ID } from "../providers/stock";
import { type AssetView, assetView } from "./asset-view";
import { keyedId } from "./generate-speech";
import { storeImage } from "./store-asset";

/** Stock photos for the image selection modal (Unsplash with a key, else the system images). */
export async function searchStock(deps: MediaDeps, caller: Caller, input: { q: string; page: number }) {
  const page = Number.isInteger(input.page) && input.page >= 1 && input.page <= 1000 ? input.page : 1;
  return deps.stock.search(input.q.slice(0, 200), page, caller.signal);
}

/**
 * A stock photo was chosen (picked in the image selection modal): Unsplash records the download, as
 * its API guidelines require; the system images have nothing to record.
 * @throws CR_ERR_BAD_REQUEST (not a stock id), NOT_FOUND, MEDIA_PROVIDER_FAILED.
 */
export async function trackStockDownload(deps: MediaDeps, caller: Caller, input: { id: string }) {
  if (!STOCK_ID.test(input.id)) throw appError("CR_ERR_BAD_REQUEST", "Not a stock photo id.", { id: "Invalid" });
  return { tracked: await deps.stock.trackDownload(input.id, caller.signal) };
}

/**
 * A stock photo kept as the user's own image asset (source "unsplash" or "system", re-encoded like
 * an upload), e.g. chosen for a craft's image step. Keyed by the photo: choosing it again answers
 * the same asset. @throws CR_ERR_BAD_REQUEST (not a stock id), NOT_FOUND, MEDIA_PROVIDER_FAILED (also
 * when the answer is no JPEG, PNG or WebP).
 */
export async function importStock(deps: MediaDeps, caller: Caller, input: { id: string }): Promise<AssetView> {
  if (!STOCK_ID.test(input.id)) throw appError("CR_ERR_BAD_REQUEST", "Not a stock photo id.", { id: "Invalid" });
  const photo = await deps.stock.fetchPhoto(input.id, caller.signal);
  const mime = (await fileTypeFromBuffer(photo.bytes))?.mime ?? "";
  if (!["image/jpeg", "image/png", "image/webp"].includes(mime))
    throw appError("MEDIA_PROVIDER_FAILED", "The stock photo could not be read. Please choose another.");
  const meta = {
    userId: caller.userId,
    projectId: "",
    source: photo.source,
    name: photo.source === "unsplash" ? `Unsplash photo ${input.id}` : `Stock photo ${input.id}`,
  };
  const id = keyedId(caller.userId, `stock:${photo.source}:${input.id}`);
  const existing = await deps.stores.assets.findById(caller.userId, id);
  if (existing) return assetView(deps, existing);
  try {
    return assetView(deps, await storeImage(deps, { ...meta, id }, photo.bytes, mime));
  } catch (error) {
    // The keyed asset was deleted by the user since: store the photo afresh.
    if (!isDuplicateKey(error)) throw error;
    return assetView(deps, await storeImage(deps, meta, photo.bytes, mime));
  }
}
