import { appError, type Caller } from "@crafter/kit";
import { fileTypeFromBuffer } from "file-type";
import type { MediaDeps } from "../deps";
import { pageOf } from "../domain/paging";
import { assetName, classifyUpload, nameTokens } from "../domain/upload";
import type { Asset } from "../store/asset.repository";
import { type AssetView, assetView } from "./asset-view";
import { keysOf, storeFile, storeImage } from "./store-asset";

/**
 * Stores a file uploaded through the gateway: its type is detected from its bytes (file-type),
 * images are re-encoded with their thumbnail and variants, audio is kept as it is. Video goes
 * through the chunked upload (startUpload), not here.
 * @throws MEDIA_UNSUPPORTED_TYPE (415), MEDIA_TOO_LARGE (413), MEDIA_UNREADABLE (422).
 */
export async function uploadAsset(
  deps: MediaDeps,
  caller: Caller,
  input: { name: string; data: Uint8Array; projectId: string; profileType?: string; profileIds: string[] },
): Promise<AssetView> {
  const bytes = Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength);
  const detected = await fileTypeFromBuffer(bytes);
  const kind = classifyUpload(detected, bytes.length);
  if (kind.type === "video") {
    throw appError("MEDIA_UNSUPPORTED_TYPE", "Upload videos in chunks (POST /api/media/uploads).");
  }
  const meta = {
    userId: caller.userId,
    projectId: input.projectId,
    source: "direct" as const,
    name: assetName(input.name, `${kind.type}.${kind.ext}`),
    profileType: input.profileType,
    profileIds: input.profileIds,
  };
  const asset =
    kind.type === "image"
      ? await storeImage(deps, meta, bytes, kind.mime)
      : await storeFile(deps, { ...meta, type: kind.type, mime: kind.mime, ext: kind.ext }, { bytes });
  return assetView(deps, asset);
}

/** A live asset of the caller. @throws NOT_FOUND */
export async function ownAsset(deps: Pick<MediaDeps, "stores">, caller: Caller, id: string): Promise<Asset> {
  const asset = await deps.stores.assets.live(caller.userId, id);
  if (!asset) throw appError("NOT_FOUND", "No such asset.");
  return asset;
}

export async function getAsset(deps: MediaDeps, caller: Caller, input: { id: string }): Promise<AssetView> {
  return assetView(deps, await ownAsset(deps, caller, input.id));
}

/** The caller's assets, newest first, filtered by equality (the words of `q` must all be in the name). */
export async function listAssets(
  deps: MediaDeps,
  caller: Caller,
  input: {
    type: string;
    source: string;
    profileType: string;
    profileIds: string[];
    q: string;
    page: number;
    pageSize: number;
  },
) {
  const { page, pageSize } = pageOf(input.page, input.pageSize);
  const found = await deps.stores.assets.page(
    caller.userId,
    {
      type: input.type || undefined,
      source: input.source || undefined,
      profileType: input.profileType || undefined,
      profileIds: input.profileIds.filter(Boolean),
      tokens: nameTokens(input.q),
    },
    page,
    pageSize,
  );
  return {
    result: found.items.map((asset) => assetView(deps, asset)),
    count: found.total,
    currentPage: found.page,
    totalPages: found.totalPages,
  };
}

export async function renameAsset(
  deps: MediaDeps,
  caller: Caller,
  input: { id: string; name: string },
): Promise<AssetView> {
  const name = assetName(input.name, "");
  if (!name) throw appError("CR_ERR_BAD_REQUEST", "A name is required.", { name: "A name is required." });
  const asset = await deps.stores.assets.rename(caller.userId, input.id, name, nameTokens(name));
  if (!asset) throw appError("NOT_FOUND", "No such asset.");
  return assetView(deps, asset);
}

/** Deletes an asset (AssetDeleted), then its files. A second delete is NOT_FOUND. */
export async function deleteAsset(
  deps: MediaDeps,
  caller: Caller,
  input: { id: string },
): Promise<Record<string, never>> {
  const asset = await ownAsset(deps, caller, input.id);
  const deleted = await deps.stores.assets.markDeleted(
    caller.userId,
    asset.id,
    deps.events.assetDeleted({ id: asset.id, userId: asset.userId, projectId: asset.projectId }),
  );
  if (!deleted) throw appError("NOT_FOUND", "No such asset.");
  deps.kick();
  // A published logo stops being public with its asset.
  await deps.stores.publicFiles.removeAsset(asset.id);
  // The record is gone for the user already; a file left behind by a failed delete costs only space.
  await deps.objects
    .delete(keysOf(asset))
    .catch((err) => deps.logger.warn({ err, assetId: asset.id }, "asset files not deleted"));
  return {};
}

export async function getMediaStatus(deps: MediaDeps, caller: Caller): Promise<{ entries: number; empty: boolean }> {
  const entries = await deps.stores.assets.countLive(caller.userId);
  return { entries, empty: entries === 0 };
}
