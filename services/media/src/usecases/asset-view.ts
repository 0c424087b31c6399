import type { MessageInitShape } from "@bufbuild/protobuf";
import type { Asset as AssetMessage, AssetSchema } from "@crafter/proto/crafter/media/v1/media_pb";
import type { MediaDeps } from "../deps";
import { expiryOf, signedUrl } from "../domain/signing";
import type { Asset } from "../store/asset.repository";

export type AssetView = MessageInitShape<typeof AssetSchema>;
export type { AssetMessage };

/** The asset as callers see it: signed, expiring URLs instead of object keys. */
export function assetView(deps: Pick<MediaDeps, "urls" | "now">, asset: Asset): AssetView {
  const exp = expiryOf(deps.now(), deps.urls.ttlSeconds);
  const url = (key: string) => signedUrl(deps.urls.secret, key, exp);
  return {
    id: asset.id,
    type: asset.type,
    source: asset.source,
    name: asset.name,
    mime: asset.mime,
    size: BigInt(asset.size),
    width: asset.width,
    height: asset.height,
    durationMs: asset.durationMs,
    url: url(asset.key),
    thumbnailUrl: asset.thumbnail ? url(asset.thumbnail.key) : asset.type === "image" ? url(asset.key) : "",
    variants: asset.variants.map((v) => ({ name: v.name, url: url(v.key), width: v.width, height: v.height })),
    profileType: asset.profileType,
    profileIds: asset.profileIds,
    createdAt: new Date(asset.createdAt).toISOString(),
    projectId: asset.projectId,
    label: asset.label,
  };
}
