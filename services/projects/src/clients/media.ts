import { ConnectError } from "@connectrpc/connect";
import { createServiceClient, type Logger, type ServiceCredentials } from "@crafter/kit";
import { MediaService } from "@crafter/proto/crafter/media/v1/media_pb";

/** A product image's copy in the owner's media library. */
export interface ImageCopy {
  assetId: string;
  /** `/media/public/<id>`: what the offering shows. */
  path: string;
}

/** Product images copied into the media library (media's ImportImage). */
export interface ProductImages {
  /**
   * Copies one image once (media keys it by project and URL: a second call copies nothing).
   * @returns its copy; null when media could not copy it (unreachable, not an image, deleted by
   *   the owner), which the caller reports by keeping the store's URL.
   */
  copy(input: {
    userId: string;
    projectId: string;
    profileId: string;
    url: string;
    name: string;
  }): Promise<ImageCopy | null>;
}

export function productImages(
  mediaUrl: string,
  timeoutMs: number,
  credentials: ServiceCredentials,
  logger: Logger,
): ProductImages {
  const client = createServiceClient(MediaService, mediaUrl, { timeoutMs, as: "service", credentials });
  return {
    async copy(input) {
      try {
        const answer = await client.importImage({
          userId: input.userId,
          projectId: input.projectId,
          url: input.url,
          key: input.url,
          name: input.name,
          profileType: "PRODUCT",
          profileIds: [input.profileId],
        });
        return answer.asset ? { assetId: answer.asset.id, path: answer.publicUrl } : null;
      } catch (error) {
        if (!(error instanceof ConnectError)) throw error;
        logger.warn({ projectId: input.projectId, err: error.message }, "a product image was not copied");
        return null;
      }
    },
  };
}
