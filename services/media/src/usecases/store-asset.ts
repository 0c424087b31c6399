import { randomUUID } from "node:crypto";
import { isDuplicateKey } from "@crafter/kit";
import type { AssetSource, AssetType } from "@crafter/media-language";
import type { MediaDeps } from "../deps";
import { nameTokens } from "../domain/upload";
import { ingestImage } from "../imaging/ingest";
import type { Asset, AssetDoc, RenditionDoc } from "../store/asset.repository";

export interface NewAsset {
  userId: string;
  projectId: string;
  source: AssetSource;
  name: string;
  profileType?: string;
  profileIds?: string[];
  label?: string;
  /** A fixed id (a keyed generation retried gives the same asset); default a new UUID. */
  id?: string;
}

type StoreDeps = Pick<MediaDeps, "stores" | "events" | "kick" | "objects" | "namespace">;

/** `<namespace>/<user>/<asset>/<file>`. */
export function objectKey(deps: Pick<MediaDeps, "namespace">, userId: string, assetId: string, file: string): string {
  return `${deps.namespace}/${userId}/${assetId}/${file}`;
}

async function insert(
  deps: StoreDeps,
  doc: Omit<AssetDoc, "outbox" | "createdAt" | "updatedAt" | "deleted">,
): Promise<Asset> {
  const event = deps.events.assetCreated(doc);
  try {
    const asset = await deps.stores.assets.create({ ...doc, deleted: false, outbox: [event] });
    deps.kick();
    return asset;
  } catch (error) {
    // A keyed asset stored by an earlier attempt: that one is the answer.
    if (isDuplicateKey(error)) {
      const existing = await deps.stores.assets.findById(doc.userId, doc._id);
      if (existing) return existing;
    }
    throw error;
  }
}

/**
 * Stores an image: re-encoded (no metadata), its thumbnail and variants put in the bucket, then the
 * asset with its AssetCreated event in one insert (files first, so an asset never names a missing file).
 */
export async function storeImage(deps: StoreDeps, meta: NewAsset, bytes: Buffer, mime: string): Promise<Asset> {
  const id = meta.id ?? randomUUID();
  const image = await ingestImage(bytes, mime);
  const ext = image.original.mime.slice("image/".length).replace("jpeg", "jpg");
  const key = objectKey(deps, meta.userId, id, `original.${ext}`);
  const renditions: RenditionDoc[] = [];
  await deps.objects.put(key, image.original.data, image.original.mime);
  for (const r of [image.thumbnail, ...image.variants]) {
    const rkey = objectKey(deps, meta.userId, id, `${r.name}.webp`);
    await deps.objects.put(rkey, r.data, r.mime);
    renditions.push({ name: r.name, key: rkey, width: r.width, height: r.height });
  }
  return insert(deps, {
    _id: id,
    userId: meta.userId,
    projectId: meta.projectId,
    type: "image",
    source: meta.source,
    name: meta.name,
    nameTokens: nameTokens(meta.name),
    mime: image.original.mime,
    size: image.original.data.length,
    width: image.original.width,
    height: image.original.height,
    key,
    thumbnail: renditions[0],
    variants: renditions.slice(1),
    profileType: meta.profileType,
    profileIds: meta.profileIds ?? [],
    label: meta.label ?? "",
  });
}

/** Stores an audio or video file as it is (its bytes were checked), or records one already in the bucket. */
export async function storeFile(
  deps: StoreDeps,
  meta: NewAsset & { type: AssetType; mime: string; ext: string; durationMs?: number },
  file: { bytes: Buffer } | { key: string; size: number },
): Promise<Asset> {
  const id = meta.id ?? randomUUID();
  let key: string;
  let size: number;
  if ("bytes" in file) {
    key = objectKey(deps, meta.userId, id, `original.${meta.ext}`);
    await deps.objects.put(key, file.bytes, meta.mime);
    size = file.bytes.length;
  } else {
    key = file.key;
    size = file.size;
  }
  return insert(deps, {
    _id: id,
    userId: meta.userId,
    projectId: meta.projectId,
    type: meta.type,
    source: meta.source,
    name: meta.name,
    nameTokens: nameTokens(meta.name),
    mime: meta.mime,
    size,
    durationMs: meta.durationMs,
    key,
    variants: [],
    profileType: meta.profileType,
    profileIds: meta.profileIds ?? [],
    label: meta.label ?? "",
  });
}

/** Every object key of an asset (original and renditions). */
export function keysOf(asset: Pick<Asset, "key" | "thumbnail" | "variants">): string[] {
  return [asset.key, ...(asset.thumbnail ? [asset.thumbnail.key] : []), ...asset.variants.map((v) => v.key)];
}
