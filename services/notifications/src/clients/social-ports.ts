import { createServiceClient, describeError, type ServiceCredentials } from "@crafter/kit";
import { IntegrationsService } from "@crafter/proto/crafter/account/v1/integrations_pb";
import { MediaService } from "@crafter/proto/crafter/media/v1/media_pb";
import type { ChannelAdapter } from "../domain/social-channels";
import { type SocialImagesPort, type SocialTokensPort, TokenUnavailable } from "../domain/social-ports";

const TITLES: Record<ChannelAdapter["provider"], string> = { meta: "Meta", tiktok: "TikTok" };

export function accountTokens(baseUrl: string, timeoutMs: number, credentials: ServiceCredentials): SocialTokensPort {
  const client = createServiceClient(IntegrationsService, baseUrl, { timeoutMs, as: "service", credentials });
  return {
    async accessToken(projectId, provider) {
      try {
        return (await client.getAccessToken({ projectId, provider })).accessToken;
      } catch (error) {
        const described = describeError(error);
        const title = TITLES[provider];
        if (described.code === "NOT_FOUND")
          throw new TokenUnavailable(
            "not_connected",
            `${title} is not connected: connect it in Settings › Integrations.`,
          );
        if (described.code === "CONFLICT")
          throw new TokenUnavailable("needs_reconnecting", `${title} needs reconnecting in Settings › Integrations.`);
        throw new TokenUnavailable("unavailable", `${title} cannot be reached right now.`);
      }
    },
  };
}

/**
 * Signed URLs of the media store (media's GetProviderFileUrl), made absolute on the deployment's
 * public origin, where the gateway serves them.
 */
export function mediaImages(
  baseUrl: string,
  timeoutMs: number,
  publicOrigin: string,
  ttlSeconds: number,
  credentials: ServiceCredentials,
): SocialImagesPort {
  const client = createServiceClient(MediaService, baseUrl, { timeoutMs, as: "service", credentials });
  return {
    async image(userId, assetId, jpeg) {
      const answer = await client.getProviderFileUrl({ userId, assetId, ttlSeconds, jpeg });
      return { kind: "image", url: `${publicOrigin}${answer.url}`, mimeType: answer.mime, bytes: Number(answer.size) };
    },
  };
}
