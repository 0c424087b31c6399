import useSWR from "swr";
import { apiKey, fetcher, http } from "../api";
import type { ResultOf, Schema } from "../contract";

/** Social publishing (the active project's): its channels and posts, typed by the gateway's OpenAPI document. */

export type SocialChannel = Schema<"SocialChannel">;
export type SocialProvider = Schema<"SocialProvider">;
export type SocialPost = Schema<"SocialPost">;
export type SocialChannelState = Schema<"SocialChannelState">;
export type TikTokCreatorInfo = Schema<"TikTokCreatorInfo">;
export type TikTokCreatorRead = ResultOf<"/api/social/tiktok/creator", "get">;
/** TikTok's options on a publish request (required with a TikTok channel). */
export type TikTokPublishOptions = {
  privacyLevel: string;
  disableComment: boolean;
  disableDuet: boolean;
  disableStitch: boolean;
};

/** The SWR keys of social publishing. */
export const socialKeys = {
  channels: () => apiKey("/api/social/channels"),
  post: (id: string) => apiKey("/api/social/posts/{id}", { path: { id } }),
  /** The connected TikTok creator's posting options (read each time a TikTok post is made). */
  tiktokCreator: () => apiKey("/api/social/tiktok/creator"),
};

/** The project's channels and providers' states. */
export function useSocialChannels() {
  return useSWR<{ channels: SocialChannel[]; providers: SocialProvider[] }>(socialKeys.channels(), fetcher);
}

export const socialApi = {
  /** The channels the project's connections offer, which are chosen, and each provider's state. */
  channels: () => http.get("/api/social/channels"),
  choose: (channelIds: string[]) => http.put("/api/social/channels", { body: { channelIds } }),
  /**
   * Publishes a social craft now (a time that has passed) or at `publishAt` (ISO 8601); `tiktok`
   * with a TikTok channel. Errors: fields.tiktokPrivacyLevel / tiktokDisable… (the creator's options).
   */
  publish: (craftId: string, channelIds: string[], publishAt: string, tiktok?: TikTokPublishOptions) =>
    http.post("/api/social/posts", {
      body: {
        craftId,
        channelIds,
        publishAt,
        ...(tiktok
          ? {
              tiktokPrivacyLevel: tiktok.privacyLevel,
              tiktokDisableComment: tiktok.disableComment,
              tiktokDisableDuet: tiktok.disableDuet,
              tiktokDisableStitch: tiktok.disableStitch,
            }
          : {}),
      },
    }),
  retry: (postId: string, channelId: string) =>
    http.post("/api/social/posts/{id}/retry", { path: { id: postId }, body: { channelId } }),
};

/** What each channel kind is called. */
export const CHANNEL_KIND_LABELS: Record<SocialChannel["kind"], string> = {
  facebook_page: "Facebook Page",
  instagram: "Instagram",
  tiktok: "TikTok",
};
