import { appError, type Caller } from "@crafter/kit";
import { PREVIEW_MAX_SIDE } from "@crafter/media-language";
import type { MediaDeps } from "../deps";
import { editCost } from "../domain/edit-cost";
import { parseOperations } from "../domain/operations";
import { assetName } from "../domain/upload";
import type { PixelCache } from "../imaging/base-cache";
import { applyOperations, decode, encode, type Pixels } from "../imaging/edit";
import type { Asset } from "../store/asset.repository";
import { type AssetView, assetView } from "./asset-view";
import { ownAsset } from "./assets";
import { storeImage } from "./store-asset";

/**
 * Side of the shrunk copy previews are computed on: the preview's own size. A crop's preview is
 * then as sharp as the crop is large (a quarter of the image → 600 px); a saved edit always uses
 * the full original. Measured by scripts/bench/media.mjs: 2 × 1200 px cost about 4× the time.
 */
export const PREVIEW_BASE_SIDE = PREVIEW_MAX_SIDE;

/**
 * The most work a preview may ask for (domain/edit-cost.ts: output pixels × operations): fifty
 * operations on a full 1200 px base, or an enlargement to about 4000×4000 and a few operations.
 * A resize to 8192×8192, a rotate and a blur (220 million) took 9.7 s of CPU before.
 */
export const PREVIEW_MAX_COST = 80_000_000;
/** The most a saved edit may ask for: a few operations on the largest image decoded (100 megapixels). */
export const SAVE_MAX_COST = 600_000_000;
/** Time budgets of a preview and a saved edit, in ms. */
export const PREVIEW_BUDGET_MS = 3_000;
export const SAVE_BUDGET_MS = 30_000;

/** @throws MEDIA_EDIT_TOO_COSTLY (422) when the operations would cost more than `max`. */
function withinCost(
  width: number,
  height: number,
  operations: Parameters<typeof editCost>[2],
  scale: number,
  max: number,
) {
  if (editCost(width, height, operations, scale).cost > max) throw appError("MEDIA_EDIT_TOO_COSTLY");
}

async function ownImage(deps: MediaDeps, caller: Caller, id: string): Promise<Asset> {
  const asset = await ownAsset(deps, caller, id);
  if (asset.type !== "image")
    throw appError("CR_ERR_BAD_REQUEST", "Only images can be edited.", { id: "Not an image" });
  return asset;
}

async function previewBase(deps: MediaDeps, cache: PixelCache, caller: Caller, asset: Asset): Promise<Pixels> {
  const key = `${asset.id}:${asset.key}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const base = await decode(await deps.objects.getBytes(asset.key, caller.signal), PREVIEW_BASE_SIDE);
  cache.set(key, base);
  return base;
}

/**
 * The edited image as a preview: WebP, at most 1200 px a side. Operations are given in the
 * original's pixels and scaled onto the shrunk copy the preview is computed on.
 * @throws NOT_FOUND, CR_ERR_BAD_REQUEST (bad operations, not an image), MEDIA_EDIT_TOO_COSTLY
 * (422: over PREVIEW_MAX_COST or PREVIEW_BUDGET_MS).
 */
export async function previewEdit(
  deps: MediaDeps,
  cache: PixelCache,
  caller: Caller,
  input: { id: string; operationsJson: string },
): Promise<{ mime: string; data: Buffer; width: number; height: number }> {
  const operations = parseOperations(input.operationsJson);
  const asset = await ownImage(deps, caller, input.id);
  const base = await previewBase(deps, cache, caller, asset);
  const scale = base.width / (asset.width ?? base.width);
  withinCost(base.width, base.height, operations, scale, PREVIEW_MAX_COST);
  const edited = await applyOperations(base, operations, scale, PREVIEW_BUDGET_MS);
  const data = await encode(edited, "image/webp", PREVIEW_MAX_SIDE);
  const ratio = Math.min(1, PREVIEW_MAX_SIDE / Math.max(edited.width, edited.height));
  return {
    mime: "image/webp",
    data,
    width: Math.round(edited.width * ratio),
    height: Math.round(edited.height * ratio),
  };
}

/**
 * Applies the operations to the full original and stores the result as a new asset (same source).
 * @throws MEDIA_EDIT_TOO_COSTLY (422: over SAVE_MAX_COST or SAVE_BUDGET_MS), as previewEdit's others.
 */
export async function saveEdit(
  deps: MediaDeps,
  caller: Caller,
  input: { id: string; operationsJson: string; name: string },
): Promise<AssetView> {
  const operations = parseOperations(input.operationsJson);
  const asset = await ownImage(deps, caller, input.id);
  const original = await decode(await deps.objects.getBytes(asset.key, caller.signal));
  withinCost(original.width, original.height, operations, 1, SAVE_MAX_COST);
  const edited = await applyOperations(original, operations, 1, SAVE_BUDGET_MS);
  const format = edited.channels === 4 || edited.channels === 2 ? "image/png" : "image/jpeg";
  const bytes = await encode(edited, format);
  const stored = await storeImage(
    deps,
    {
      userId: caller.userId,
      projectId: asset.projectId,
      source: asset.source,
      name: assetName(input.name, `${asset.name} (edited)`),
      profileType: asset.profileType,
      profileIds: asset.profileIds,
      label: asset.label,
    },
    bytes,
    format,
  );
  return assetView(deps, stored);
}
