/**
 * Publishing a crafted social post to the channels a project connected: the port each provider's
 * adapter implements (clients/social/<provider>.ts) and the shapes the publishing engine keeps.
 * Pure types; the engine records every attempt and remote id, adapters only speak HTTP.
 */

/** Where a post can go: a Facebook Page, an Instagram professional account, a TikTok creator. */
export const CHANNEL_KINDS = ["facebook_page", "instagram", "tiktok"] as const;
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** The account service's provider of each channel kind (its connection gives the access token). */
export const CHANNEL_PROVIDER: Readonly<Record<ChannelKind, "meta" | "tiktok">> = {
  facebook_page: "meta",
  instagram: "meta",
  tiktok: "tiktok",
};

/** A channel as the provider lists it for the connected account. */
export interface Channel {
  kind: ChannelKind;
  /** The provider's id: Page id, Instagram user id, TikTok open_id. */
  remoteId: string;
  /** What the provider calls it (Page name, @username, display name). */
  name: string;
  /** Its picture, when the provider gives one (https URL). */
  pictureUrl?: string;
}

/** One medium of a post, served to the provider from the media store by a signed, expiring URL. */
export interface PostMedium {
  kind: "image" | "video";
  url: string;
  mimeType: string;
  /** Size in bytes (the Content Posting API's upload needs it). */
  bytes: number;
}

/**
 * What the creator chose for a TikTok post where it was scheduled, from the choices TikTok's
 * creator_info query offers (its content sharing guidelines: no default privacy level).
 */
export interface TikTokPostOptions {
  /** One of the creator's `privacy_level_options` (PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, FOLLOWER_OF_CREATOR, SELF_ONLY). */
  privacyLevel: string;
  /** Interactions the creator turned off for this post (TikTok's own settings turn them off too). */
  disableComment?: boolean;
  disableDuet?: boolean;
  disableStitch?: boolean;
}

/** What is published on a channel. */
export interface PostContent {
  /** The caption or message, as the channel shows it. */
  text: string;
  media: readonly PostMedium[];
  /** TikTok's posting options; a TikTok post without them is refused before anything is sent. */
  tiktok?: TikTokPostOptions;
}

/**
 * The outcome of one attempt or status check:
 * - `published`: live, with the provider's post id and its public link when known;
 * - `processing`: accepted, still being processed (an Instagram container, a TikTok publish id): ask
 *   `status` again later with `remoteRef`;
 * - `failed`: refused. `retryable` when asking again later may work (throttled, 5xx, timeout);
 *   `reason` is the provider's words, shown to the user beside Retry.
 */
export type PublishOutcome =
  | { state: "published"; remotePostId: string; permalink?: string }
  | { state: "processing"; remoteRef: string }
  | { state: "failed"; reason: string; retryable: boolean; retryAfterMs?: number };

/** A post found among a channel's recent posts. */
export interface FoundPost {
  remotePostId: string;
  permalink?: string;
}

/**
 * A provider's publishing API. Every call goes through the kit's `providerHttp` (outbound rules,
 * rate-limit answers, backoff); an unreachable provider throws `OutboundError`, which the engine
 * treats as an attempt whose outcome is unknown.
 */
export interface ChannelAdapter {
  readonly provider: "meta" | "tiktok";
  readonly kinds: readonly ChannelKind[];
  /** The channels the connection's access token can publish to. */
  listChannels(accessToken: string): Promise<Channel[]>;
  /**
   * One attempt. `onRemoteRef` is awaited as soon as the provider names the post, container or
   * publish id, before any further call, so that the engine records it and a crash after it does
   * not publish again.
   */
  publish(
    accessToken: string,
    channel: Channel,
    content: PostContent,
    onRemoteRef: (remoteRef: string) => Promise<void>,
  ): Promise<PublishOutcome>;
  /** Where an accepted attempt stands, by the ref `onRemoteRef` was given. */
  status(accessToken: string, channel: Channel, remoteRef: string): Promise<PublishOutcome>;
  /**
   * Looks for this post among the channel's posts made since `since` (by its text), before an
   * attempt whose outcome is unknown is retried. Null when it is not there.
   */
  findRecent(accessToken: string, channel: Channel, content: PostContent, since: Date): Promise<FoundPost | null>;
}
