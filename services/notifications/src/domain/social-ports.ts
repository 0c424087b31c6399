// What social publishing needs from outside the service, as ports (wired in main.ts).
import type { ChannelAdapter, PostMedium } from "./social-channels";

/** Why a provider's access token cannot be had: not connected, needs reconnecting, or unavailable now. */
export class TokenUnavailable extends Error {
  override name = "TokenUnavailable";
  constructor(
    readonly state: "not_connected" | "needs_reconnecting" | "unavailable",
    message: string,
  ) {
    super(message);
  }
}

/** A project's connection's access token (account's GetAccessToken; account refreshes it). */
export interface SocialTokensPort {
  /** @throws TokenUnavailable */
  accessToken(projectId: string, provider: ChannelAdapter["provider"]): Promise<string>;
}

/** A post's image as the provider fetches it: a signed, expiring URL of the media store. */
export interface SocialImagesPort {
  /** @param jpeg Instagram takes only JPEG. @throws when the asset is gone (NOT_FOUND) or media is down. */
  image(userId: string, assetId: string, jpeg: boolean): Promise<PostMedium>;
}
