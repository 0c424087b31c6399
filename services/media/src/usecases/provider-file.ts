import { appError, badRequest } from "@crafter/kit";
import sharp from "sharp";
import type { MediaDeps } from "../deps";
import { signedUrl } from "../domain/signing";
import { objectKey } from "./store-asset";

/** A user's image as a provider fetches it: a signed path that expires, the file's type and size. */
export interface ProviderFileUrl {
  url: string;
  mime: string;
  size: bigint;
  expiresAt: bigint;
}

const DEFAULT_TTL_SECONDS = 3600;

/**
 * A signed URL of a user's image asset for a provider to fetch (a social post's image), expiring
 * after `ttlSeconds` (60–86,400; 0 means an hour). With `jpeg`, a non-JPEG image is converted once
 * (quality 90) and kept beside the asset as `provider.jpg`, since Instagram takes only JPEG.
 * @throws NOT_FOUND (no such live asset of the user), CR_ERR_BAD_REQUEST (not an image, a bad TTL).
 */
export async function getProviderFileUrl(
  deps: Pick<MediaDeps, "stores" | "objects" | "urls" | "now" | "namespace">,
  input: { userId: string; assetId: string; ttlSeconds: number; jpeg: boolean },
): Promise<ProviderFileUrl> {
  const ttl = input.ttlSeconds || DEFAULT_TTL_SECONDS;
  if (!Number.isInteger(ttl) || ttl < 60 || ttl > 86_400) throw badRequest({ ttlSeconds: "ttlSeconds is 60 to 86400" });
  if (!input.userId || input.userId.length > 64 || !input.assetId || input.assetId.length > 64)
    throw appError("NOT_FOUND", "No such asset.");
  const asset = await deps.stores.assets.live(input.userId, input.assetId);
  if (!asset) throw appError("NOT_FOUND", "No such asset.");
  if (asset.type !== "image") throw badRequest({ assetId: "Not an image" });
  let key = asset.key;
  let mime = asset.mime;
  let size = asset.size;
  if (input.jpeg && asset.mime !== "image/jpeg") {
    key = objectKey(deps, asset.userId, asset.id, "provider.jpg");
    const existing = await deps.objects.getBytes(key).catch(() => null);
    if (existing) {
      size = existing.length;
    } else {
      const bytes = await deps.objects.getBytes(asset.key);
      const jpeg = await sharp(bytes).flatten({ background: "#ffffff" }).jpeg({ quality: 90 }).toBuffer();
      await deps.objects.put(key, jpeg, "image/jpeg");
      size = jpeg.length;
    }
    mime = "image/jpeg";
  }
  const exp = Math.floor(deps.now().getTime() / 1000) + ttl;
  return { url: signedUrl(deps.urls.secret, key, exp), mime, size: BigInt(size), expiresAt: BigInt(exp) };
}
