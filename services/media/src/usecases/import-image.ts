import { randomBytes } from "node:crypto";
import { appError, OutboundError, outboundFetch } from "@crafter/kit";
import { ACCEPTED_MIME, MAX_BYTES } from "@crafter/media-language";
import { fileTypeFromBuffer } from "file-type";
import type { MediaDeps } from "../deps";
import { type AssetView, assetView } from "./asset-view";
import { PUBLIC_MEDIA_PATH } from "./files";
import { keyedId } from "./generate-speech";
import { storeImage } from "./store-asset";

export interface ImportImageInput {
  userId: string;
  projectId: string;
  url: string;
  key: string;
  name: string;
  profileType: string;
  profileIds: string[];
}

/**
 * Copies an image a provider serves (a Shopify product's image) into the user's library once: the
 * asset's id is derived from the user, project and `key`, so a second call (a re-sync, a
 * redelivered webhook) answers the same asset without fetching. Fetched through the outbound rules
 * (public addresses, or the hosts pinned by INTEGRATIONS_RESOLVE), at most MAX_BYTES.image, checked
 * to be an image by its bytes, re-encoded like an upload (source "shopify"), and published at a
 * lasting `/media/public/<id>` path (the offering shows it).
 * @throws CR_ERR_BAD_REQUEST (no user, not an http(s) URL, no key), MEDIA_PROVIDER_FAILED (not
 *   fetched, not 200, too large, not an image), CONFLICT (the owner deleted the copy: not copied again).
 */
export async function importImage(
  deps: MediaDeps,
  input: ImportImageInput,
): Promise<{ asset: AssetView; publicUrl: string }> {
  if (!input.userId) throw appError("CR_ERR_BAD_REQUEST", "userId is required.", { userId: "Required" });
  if (!/^https?:\/\//i.test(input.url) || input.url.length > 2048)
    throw appError("CR_ERR_BAD_REQUEST", "An image URL is an http(s) URL.", { url: "Invalid" });
  if (!input.key || input.key.length > 2048)
    throw appError("CR_ERR_BAD_REQUEST", "key is required.", { key: "Required" });
  const id = keyedId(input.userId, `import:${input.projectId}:${input.key}`);
  let asset = await deps.stores.assets.findById(input.userId, id);
  if (asset?.deleted) throw appError("CONFLICT", "The copy of this image was deleted by its owner.");
  if (!asset) {
    let bytes: Buffer;
    try {
      const answer = await outboundFetch(input.url, {
        timeoutMs: deps.imports.timeoutMs,
        maxBytes: MAX_BYTES.image,
        pins: deps.imports.pins,
        headers: { accept: "image/*" },
      });
      if (answer.status !== 200) throw appError("MEDIA_PROVIDER_FAILED", `The image answered HTTP ${answer.status}.`);
      if (answer.truncated) throw appError("MEDIA_PROVIDER_FAILED", "The image is larger than 15 MB.");
      bytes = Buffer.from(answer.body);
    } catch (error) {
      if (error instanceof OutboundError)
        throw appError("MEDIA_PROVIDER_FAILED", `The image was not fetched: ${error.message}`);
      throw error;
    }
    const mime = (await fileTypeFromBuffer(bytes))?.mime ?? "";
    if (!ACCEPTED_MIME.image.includes(mime)) throw appError("MEDIA_PROVIDER_FAILED", "The file is not an image.");
    try {
      asset = await storeImage(
        deps,
        {
          id,
          userId: input.userId,
          projectId: input.projectId,
          source: "shopify",
          name: (input.name.trim() || "Product image").slice(0, 200),
          profileType: input.profileType || undefined,
          profileIds: input.profileIds.slice(0, 20),
        },
        bytes,
        mime,
      );
    } catch (error) {
      if (error instanceof Error && /unsupported image|input buffer|corrupt/i.test(error.message))
        throw appError("MEDIA_PROVIDER_FAILED", "The image could not be read.");
      throw error;
    }
  }
  const published = await deps.stores.publicFiles.publish({
    _id: randomBytes(16).toString("base64url"),
    assetId: asset.id,
    userId: asset.userId,
    key: asset.key,
    mime: asset.mime,
    createdAt: deps.now(),
  });
  return { asset: assetView(deps, asset), publicUrl: `${PUBLIC_MEDIA_PATH}${published._id}` };
}
