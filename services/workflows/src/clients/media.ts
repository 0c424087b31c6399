import {
  appError,
  type Caller,
  createServiceClient,
  describeError,
  onBehalfOf,
  type ServiceCredentials,
} from "@crafter/kit";
import { type Asset, MediaService } from "@crafter/proto/crafter/media/v1/media_pb";
import type { MediaAssetRef, MediaPort } from "../domain/media-step";

/** Longest wait for one image (the provider's own deadline is shorter) or one spoken script. */
const IMAGE_TIMEOUT_MS = 3 * 60_000;
const SPEECH_TIMEOUT_MS = 12 * 60_000;

/** Re-throws a media failure in the spec's terms (credits, plan limit, provider), never a raw upstream error. */
function upstream(error: unknown): never {
  const described = describeError(error);
  throw appError(
    described.code,
    described.code === "InternalServerError" ? undefined : described.message,
    described.fields,
  );
}

/**
 * What a step result keeps of an asset. Its URL is the gateway's download route, which the
 * signed-in owner can always open: the asset's signed URL expires (MEDIA_URL_TTL_S).
 */
export function assetRef(asset: Asset): MediaAssetRef {
  const url = `/api/media/assets/${encodeURIComponent(asset.id)}/download`;
  return {
    id: asset.id,
    type: asset.type === "audio" ? "audio" : "image",
    name: asset.name,
    mime: asset.mime,
    url,
    thumbnailUrl: url,
    source: asset.source,
    ...(asset.label ? { label: asset.label } : {}),
    ...(asset.width ? { width: asset.width } : {}),
    ...(asset.height ? { height: asset.height } : {}),
    ...(asset.durationMs ? { durationMs: asset.durationMs } : {}),
  };
}

/**
 * The media service as the engine's MediaPort: images on behalf of the user (the media service
 * debits them and counts the plan's AI images), speech with the workflows service token naming
 * the user (`GenerateSpeech` is service:workflows only).
 * @param baseUrl MEDIA_URL, e.g. http://127.0.0.1:50058.
 */
export function createMediaPort(baseUrl: string, timeoutMs: number, credentials: ServiceCredentials): MediaPort {
  const asUser = createServiceClient(MediaService, baseUrl, { timeoutMs });
  const asService = createServiceClient(MediaService, baseUrl, { timeoutMs, as: "service", credentials });
  return {
    async generateImage(caller: Pick<Caller, "token" | "signal">, input) {
      const asset = await asUser
        .generateImage(
          {
            prompt: input.prompt,
            size: input.size,
            projectId: input.projectId,
            headline: input.headline,
            colors: input.colors,
            logoAssetId: "",
          },
          { ...onBehalfOf(caller), timeoutMs: IMAGE_TIMEOUT_MS },
        )
        .catch(upstream);
      return assetRef(asset);
    },
    async getAsset(caller, assetId) {
      return assetRef(await asUser.getAsset({ id: assetId }, onBehalfOf(caller)).catch(upstream));
    },
    async importStock(caller, stockId) {
      return assetRef(await asUser.importStock({ id: stockId }, onBehalfOf(caller)).catch(upstream));
    },
    async storeDesignAsset(caller, designId) {
      return assetRef(await asUser.storeDesignAsset({ id: designId }, onBehalfOf(caller)).catch(upstream));
    },
    async generateSpeech(input, signal) {
      const asset = await asService
        .generateSpeech(
          {
            userId: input.userId,
            segments: input.segments,
            name: input.name,
            projectId: input.projectId,
            key: input.key,
          },
          { signal, timeoutMs: SPEECH_TIMEOUT_MS },
        )
        .catch(upstream);
      return assetRef(asset);
    },
  };
}
