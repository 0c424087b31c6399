/**
 * TikTok's side of social publishing: the Content Posting API (Direct Post) and the Display API's
 * video list, through the kit's `providerHttp`. A photo post goes as `PULL_FROM_URL` (TikTok pulls
 * the images from the media store's signed URLs: the only source photos have); a video as
 * `FILE_UPLOAD`, read from the media store a chunk at a time and sent to the `upload_url`.
 *
 * Once-only: the `publish_id` is given to `onRemoteRef` as soon as the init answers, before any
 * byte is uploaded; `status` polls it; `findRecent` looks among the creator's published posts.
 */
import { OutboundError, outboundFetch, type ProviderAnswer, type ProviderHttp } from "@crafter/kit";
import type {
  ChannelAdapter,
  FoundPost,
  PostMedium,
  PublishOutcome,
  TikTokPostOptions,
} from "../../domain/social-channels";

/** open.tiktokapis.com; tests move it to their local TikTok (TIKTOK_BASE_URL). */
export const TIKTOK_API = "https://open.tiktokapis.com";

const MB = 1024 * 1024;
/** Chunks sent of a video over 64 MB (TikTok takes 5 to 64 MB; the last one takes the rest). */
export const UPLOAD_CHUNK_BYTES = 10 * MB;
/** TikTok's limits: photos per post, title lengths, description length, photo formats. */
export const PHOTO_LIMIT = 35;
const PHOTO_TITLE_MAX = 90;
const VIDEO_TITLE_MAX = 2200;
const PHOTO_DESCRIPTION_MAX = 4000;
const PHOTO_TYPES = ["image/jpeg", "image/webp"];
const VIDEO_TYPES = ["video/mp4", "video/quicktime", "video/webm"];
/** Pages of the creator's posts read at most when looking for a post. */
const FIND_PAGES = 5;

/** The creator's posting options (creator_info/query), shown where a TikTok post is scheduled. */
export interface CreatorInfo {
  username: string;
  nickname: string;
  avatarUrl: string;
  privacyLevelOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number;
}

/** A TikTok API error answer: its HTTP status and TikTok's `error.code` and `error.message`. */
export class TikTokApiError extends Error {
  override name = "TikTokApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Reads `bytes` [start, end] (inclusive) of a medium from the media store. @throws OutboundError */
export type MediaRangeReader = (medium: PostMedium, start: number, end: number) => Promise<Uint8Array>;

export interface TikTokAdapterOptions {
  /** Calls safe to repeat (creator info, status, lists), retried on 429 and 5xx. */
  reads: ProviderHttp;
  /** Calls that may make a post (init, upload), made once: after a 5xx TikTok may have accepted it. */
  writes: ProviderHttp;
  /** TikTok's API origin (default open.tiktokapis.com). */
  baseUrl?: string;
  /** How video bytes are read from the media store (default: ranged GETs through the outbound module). */
  readRange?: MediaRangeReader;
  /** How often, and how many times, `publish` asks for the post's status before answering processing. */
  pollMs?: number;
  polls?: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The engine's ref of a TikTok post: `publish:<publish_id>` (a publish id names a post TikTok
 * accepted, which it publishes unless it fails it).
 */
export const refOf = (publishId: string) => `publish:${publishId}`;
const publishIdOf = (ref: string) => ref.replace(/^publish:/, "");

export interface TikTokAdapter extends ChannelAdapter {
  /** The creator's posting options now. @throws TikTokApiError, OutboundError */
  creatorInfo(accessToken: string): Promise<CreatorInfo>;
}

// --- pure parts ---------------------------------------------------------------------------------

/**
 * How a video of `size` bytes is sent (the media transfer guide): whole when it is at most 64 MB,
 * else in chunks of `UPLOAD_CHUNK_BYTES` with the last one taking the rest.
 */
export function chunkPlan(size: number): { chunkSize: number; totalChunkCount: number; ranges: [number, number][] } {
  if (size <= 64 * MB) return { chunkSize: size, totalChunkCount: 1, ranges: [[0, size - 1]] };
  const chunkSize = UPLOAD_CHUNK_BYTES;
  const totalChunkCount = Math.floor(size / chunkSize);
  const ranges: [number, number][] = [];
  for (let i = 0; i < totalChunkCount; i++) {
    const start = i * chunkSize;
    ranges.push([start, i === totalChunkCount - 1 ? size - 1 : start + chunkSize - 1]);
  }
  return { chunkSize, totalChunkCount, ranges };
}

/** The first `max` characters (code points) of `text`, on one line when `oneLine`. */
export function clip(text: string, max: number, oneLine = false): string {
  const source = oneLine ? (text.split(/\r?\n/).find((line) => line.trim()) ?? "").trim() : text;
  const chars = [...source];
  return chars.length <= max ? source : `${chars.slice(0, max - 1).join("")}…`;
}

/** What kind of TikTok post the media make, or why they cannot be one. */
export function postKind(media: readonly PostMedium[]): { kind: "photo" | "video" } | { problem: string } {
  if (media.length === 0) return { problem: "A TikTok post needs a video or photos." };
  const videos = media.filter((medium) => medium.kind === "video");
  if (videos.length > 0) {
    if (media.length > 1) return { problem: "A TikTok video post has one video and no photos." };
    const [video] = videos;
    if (!video || !VIDEO_TYPES.includes(video.mimeType)) return { problem: "TikTok takes MP4, MOV or WebM videos." };
    return { kind: "video" };
  }
  if (media.length > PHOTO_LIMIT) return { problem: `A TikTok photo post has at most ${PHOTO_LIMIT} photos.` };
  if (!media.every((medium) => PHOTO_TYPES.includes(medium.mimeType)))
    return { problem: "TikTok takes JPEG or WebP photos only." };
  return { kind: "photo" };
}

/** Why the chosen options do not fit the creator's, or null. */
export function optionsProblem(options: TikTokPostOptions | undefined, creator: CreatorInfo): string | null {
  if (!options?.privacyLevel) return "Choose who can see this post on TikTok before it is published.";
  if (!creator.privacyLevelOptions.includes(options.privacyLevel))
    return `This TikTok account cannot post as ${options.privacyLevel}; it offers ${creator.privacyLevelOptions.join(", ")}.`;
  return null;
}

/** The Direct Post video init body. */
export function videoInitBody(text: string, options: TikTokPostOptions, creator: CreatorInfo, size: number) {
  const plan = chunkPlan(size);
  return {
    post_info: {
      title: clip(text, VIDEO_TITLE_MAX),
      privacy_level: options.privacyLevel,
      disable_comment: Boolean(options.disableComment) || creator.commentDisabled,
      disable_duet: Boolean(options.disableDuet) || creator.duetDisabled,
      disable_stitch: Boolean(options.disableStitch) || creator.stitchDisabled,
    },
    source_info: {
      source: "FILE_UPLOAD",
      video_size: size,
      chunk_size: plan.chunkSize,
      total_chunk_count: plan.totalChunkCount,
    },
  };
}

/** The Direct Post photo init body (content/init). */
export function photoInitBody(text: string, options: TikTokPostOptions, creator: CreatorInfo, urls: readonly string[]) {
  return {
    media_type: "PHOTO",
    post_mode: "DIRECT_POST",
    post_info: {
      title: clip(text, PHOTO_TITLE_MAX, true),
      description: clip(text, PHOTO_DESCRIPTION_MAX),
      privacy_level: options.privacyLevel,
      disable_comment: Boolean(options.disableComment) || creator.commentDisabled,
      auto_add_music: true,
    },
    source_info: { source: "PULL_FROM_URL", photo_cover_index: 0, photo_images: [...urls] },
  };
}

/** TikTok's error of an answer (its envelope's `error.code` other than `ok`, or a non-2xx), or null. */
export function apiErrorOf(answer: Pick<ProviderAnswer, "status" | "json">): TikTokApiError | null {
  const error = (answer.json as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const code = typeof error?.code === "string" ? error.code : "";
  if (answer.status >= 200 && answer.status < 300 && code === "ok") return null;
  const message = typeof error?.message === "string" && error.message ? error.message : `HTTP ${answer.status}`;
  return new TikTokApiError(
    answer.status,
    code || (answer.status >= 500 ? "internal_error" : "invalid_response"),
    message,
  );
}

/** Error codes after which asking again later may work, and how long to wait (ms) when TikTok's doc says. */
const RETRYABLE_CODES: Readonly<Record<string, number | undefined>> = {
  rate_limit_exceeded: 60_000,
  internal_error: undefined,
  spam_risk_too_many_posts: 3_600_000,
  reached_active_user_cap: 3_600_000,
};

/** What the user reads for TikTok's refusals. */
const REFUSALS: Readonly<Record<string, string>> = {
  access_token_invalid: "TikTok no longer accepts this connection: reconnect TikTok in Settings › Integrations.",
  scope_not_authorized: "The TikTok connection lacks posting permission: reconnect TikTok and allow posting.",
  scope_permission_missed: "The TikTok connection lacks posting permission: reconnect TikTok and allow posting.",
  privacy_level_option_mismatch: "TikTok refused the chosen privacy level for this account: choose another.",
  url_ownership_unverified: "TikTok refused the media's address: the media domain is not verified with TikTok.",
  spam_risk_too_many_posts: "TikTok's daily limit of posts through apps is reached for this account; try again later.",
  spam_risk_user_banned_from_posting: "TikTok does not let this account post now.",
  reached_active_user_cap: "TikTok's daily limit of posting accounts for this app is reached; try again later.",
  unaudited_client_can_only_post_to_private_accounts:
    "Until TikTok reviews this app, it may only post to private accounts (privacy level SELF_ONLY).",
  rate_limit_exceeded: "TikTok asked to slow down; try again in a minute.",
};

/** A refused call as an outcome: TikTok's words, and whether a later attempt may work. */
export function failureOf(error: TikTokApiError, retryAfterMs?: number | null): PublishOutcome {
  const retryable = error.code in RETRYABLE_CODES || error.status === 429 || error.status >= 500;
  const wait = retryAfterMs ?? RETRYABLE_CODES[error.code];
  const reason = REFUSALS[error.code] ?? `TikTok refused the post: ${error.message} (${error.code}).`;
  return { state: "failed", reason, retryable, ...(retryable && wait ? { retryAfterMs: wait } : {}) };
}

/** TikTok's `fail_reason`s of a FAILED post, for the user, and whether a new attempt may work. */
const FAIL_REASONS: Readonly<Record<string, { text: string; retryable: boolean }>> = {
  file_format_check_failed: { text: "TikTok could not read the media's format.", retryable: false },
  duration_check_failed: { text: "The video is longer than this TikTok account may post.", retryable: false },
  frame_rate_check_failed: { text: "TikTok refused the video's frame rate.", retryable: false },
  picture_size_check_failed: { text: "TikTok refused the size of a photo or of the video.", retryable: false },
  internal: { text: "TikTok failed to publish the post on its side.", retryable: true },
  video_pull_failed: { text: "TikTok could not download the video from the media store.", retryable: true },
  photo_pull_failed: { text: "TikTok could not download a photo from the media store.", retryable: true },
  publish_cancelled: { text: "The post was cancelled on TikTok.", retryable: false },
  auth_removed: { text: "The creator removed Crafter's access in TikTok: reconnect TikTok.", retryable: false },
  spam_risk_too_many_posts: { text: REFUSALS.spam_risk_too_many_posts ?? "", retryable: true },
  spam_risk_user_banned_from_posting: { text: REFUSALS.spam_risk_user_banned_from_posting ?? "", retryable: false },
  spam_risk_text: { text: "TikTok flagged the post's text as spam.", retryable: false },
  spam_risk: { text: "TikTok flagged the post as spam.", retryable: false },
};

/**
 * A status/fetch answer's `data` as an outcome, with the published post when it was found (a post
 * TikTok keeps private has no public id: the publish id stands for it). `PROCESSING_UPLOAD` reads as an interrupted
 * upload (retryable: TikTok publishes nothing until every chunk is there), since `publish`
 * finishes its upload before it returns.
 */
export function outcomeOfStatus(
  publishId: string,
  data: { status?: unknown; fail_reason?: unknown },
  post: FoundPost | null,
): PublishOutcome {
  switch (data.status) {
    case "PUBLISH_COMPLETE":
      return post
        ? { state: "published", ...post }
        : { state: "published", remotePostId: publishId.replace(/^publish:/, "") };
    case "SEND_TO_USER_INBOX":
      return { state: "published", remotePostId: publishId.replace(/^publish:/, "") };
    case "FAILED": {
      const code = typeof data.fail_reason === "string" ? data.fail_reason : "";
      const known = FAIL_REASONS[code];
      return known
        ? { state: "failed", reason: known.text, retryable: known.retryable }
        : {
            state: "failed",
            reason: `TikTok could not publish the post (${code || "no reason given"}).`,
            retryable: false,
          };
    }
    case "PROCESSING_UPLOAD":
      return {
        state: "failed",
        reason: "The upload to TikTok was interrupted before it ended; nothing was published.",
        retryable: true,
      };
    default:
      return { state: "processing", remoteRef: publishId };
  }
}

/** Text as compared when looking for a post: whitespace collapsed, case folded. */
export function normalText(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

/**
 * Whether a listed post carries this text: TikTok lists a video's caption and a photo post's
 * description, cut at 150 characters or more, so one must begin the other (at least 20 characters
 * of it, or the whole text when shorter).
 */
export function sameText(listed: string, text: string): boolean {
  const a = normalText(listed);
  const b = normalText(text);
  if (!a || !b) return false;
  if (a === b) return true;
  const shorter = a.length < b.length ? a : b;
  const longer = a.length < b.length ? b : a;
  return shorter.length >= 20 && longer.startsWith(shorter.replace(/…$/, ""));
}

/** A listed post (video/list's `id` and `share_url`) as found. */
export function foundOf(video: Record<string, unknown>): FoundPost {
  const found: FoundPost = { remotePostId: String(video.id ?? "") };
  if (typeof video.share_url === "string" && /^https:\/\//.test(video.share_url)) found.permalink = video.share_url;
  return found;
}

// --- the adapter --------------------------------------------------------------------------------

/** Reads a medium's bytes with an HTTP Range request through the outbound module. */
export function rangeReader(options: { pins: Readonly<Record<string, string>>; timeoutMs: number }): MediaRangeReader {
  return async (medium, start, end) => {
    const length = end - start + 1;
    const response = await outboundFetch(medium.url, {
      timeoutMs: options.timeoutMs,
      maxBytes: length,
      pins: options.pins,
      headers: { range: `bytes=${start}-${end}` },
    });
    const whole = response.status === 200 && start === 0 && response.bytes === length && !response.truncated;
    if ((response.status !== 206 && !whole) || response.bytes !== length) {
      throw new Error(`the media store answered ${response.status} with ${response.bytes} of ${length} bytes`);
    }
    return response.body;
  };
}

export function tiktokAdapter(options: TikTokAdapterOptions): TikTokAdapter {
  const base = (options.baseUrl ?? TIKTOK_API).replace(/\/+$/, "");
  const readRange = options.readRange ?? rangeReader({ pins: {}, timeoutMs: 60_000 });
  const pollMs = options.pollMs ?? 3000;
  const polls = options.polls ?? 10;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  async function api(path: string, accessToken: string, body: unknown = undefined): Promise<ProviderAnswer> {
    return options.reads.call(`${base}${path}`, { method: "POST", bearer: accessToken, json: body ?? {} });
  }

  /**
   * An init: made once. A 5xx or an unreadable answer leaves it unknown whether TikTok accepted
   * the post, which is how the engine reads an OutboundError (it looks among the recent posts).
   */
  async function init(path: string, accessToken: string, body: unknown): Promise<ProviderAnswer> {
    const url = `${base}${path}`;
    const answer = await options.writes.call(url, { method: "POST", bearer: accessToken, json: body });
    if (answer.status >= 500 || (answer.status < 300 && answer.json === null))
      throw new OutboundError("network", `TikTok answered HTTP ${answer.status} to an init`, url);
    return answer;
  }

  /** The answer's `data`, or throws TikTok's error. */
  function dataOf(answer: ProviderAnswer): Record<string, unknown> {
    const error = apiErrorOf(answer);
    if (error) throw error;
    const data = (answer.json as { data?: unknown }).data;
    return typeof data === "object" && data !== null ? (data as Record<string, unknown>) : {};
  }

  const retryAfter = (answer: ProviderAnswer) => {
    const seconds = Number(answer.headers.get("retry-after"));
    return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null;
  };

  async function creatorInfo(accessToken: string): Promise<CreatorInfo> {
    const data = dataOf(await api("/v2/post/publish/creator_info/query/", accessToken));
    const text = (value: unknown) => (typeof value === "string" ? value : "");
    return {
      username: text(data.creator_username),
      nickname: text(data.creator_nickname),
      avatarUrl: text(data.creator_avatar_url),
      privacyLevelOptions: Array.isArray(data.privacy_level_options)
        ? data.privacy_level_options.filter((value): value is string => typeof value === "string")
        : [],
      commentDisabled: data.comment_disabled === true,
      duetDisabled: data.duet_disabled === true,
      stitchDisabled: data.stitch_disabled === true,
      maxVideoPostDurationSec: Number(data.max_video_post_duration_sec) || 0,
    };
  }

  /** Runs `call`; a TikTok refusal becomes a failed outcome (nothing was accepted). */
  async function refusalsAsOutcome(call: () => Promise<PublishOutcome>): Promise<PublishOutcome> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof TikTokApiError) return failureOf(error);
      throw error;
    }
  }

  /**
   * The published post of status/fetch's `publicaly_available_post_id`. TikTok sends its 19-digit
   * ids as JSON numbers, which lose digits in JavaScript, so the post is looked up among the
   * creator's newest posts (ids as text, with their share URL) by the rounded number.
   */
  async function publishedPost(accessToken: string, ids: unknown): Promise<FoundPost | null> {
    const first = Array.isArray(ids) ? Number(ids[0]) : Number.NaN;
    if (!Number.isFinite(first)) return null;
    try {
      const answer = await options.reads.call(`${base}/v2/video/list/?fields=id,share_url`, {
        method: "POST",
        bearer: accessToken,
        json: { max_count: 20 },
      });
      const videos = dataOf(answer).videos;
      for (const video of Array.isArray(videos) ? (videos as Record<string, unknown>[]) : []) {
        if (typeof video.id === "string" && Number(video.id) === first) return foundOf(video);
      }
    } catch (error) {
      if (!(error instanceof TikTokApiError)) throw error;
    }
    return Number.isSafeInteger(first) ? { remotePostId: String(first) } : null;
  }

  async function uploadVideo(video: PostMedium, uploadUrl: string): Promise<PublishOutcome | null> {
    for (const [start, end] of chunkPlan(video.bytes).ranges) {
      let bytes: Uint8Array;
      try {
        bytes = await readRange(video, start, end);
      } catch (error) {
        return {
          state: "failed",
          reason: `The video could not be read from the media store (${(error as Error).message}); nothing was published.`,
          retryable: true,
        };
      }
      const answer = await options.writes.call(uploadUrl, {
        method: "PUT",
        bytes,
        headers: { "content-type": video.mimeType, "content-range": `bytes ${start}-${end}/${video.bytes}` },
      });
      if (answer.status !== 206 && answer.status !== 201) {
        return {
          state: "failed",
          reason: `TikTok refused a part of the video (HTTP ${answer.status}); nothing was published.`,
          retryable: answer.status === 429 || answer.status >= 500,
        };
      }
    }
    return null;
  }

  /** Where a post stands (status/fetch), by its ref. */
  async function statusOf(accessToken: string, remoteRef: string): Promise<PublishOutcome> {
    const answer = await api("/v2/post/publish/status/fetch/", accessToken, { publish_id: publishIdOf(remoteRef) });
    const error = apiErrorOf(answer);
    // TikTok does not know the publish id: nothing was published under it.
    if (error?.code === "invalid_params")
      return { state: "failed", reason: "TikTok does not know this post.", retryable: true };
    // Any other refusal says nothing of the post: ask again later.
    if (error) return { state: "processing", remoteRef };
    const data = dataOf(answer);
    const post =
      data.status === "PUBLISH_COMPLETE" ? await publishedPost(accessToken, data.publicaly_available_post_id) : null;
    return outcomeOfStatus(remoteRef, data, post);
  }

  /** Polls a post just accepted for a while, so most posts answer published or failed at once. */
  async function settle(accessToken: string, remoteRef: string): Promise<PublishOutcome> {
    for (let i = 0; i < polls; i++) {
      await sleep(pollMs);
      const outcome = await statusOf(accessToken, remoteRef);
      if (outcome.state !== "processing") return outcome;
    }
    return { state: "processing", remoteRef };
  }

  return {
    provider: "tiktok",
    kinds: ["tiktok"],
    creatorInfo,

    async listChannels(accessToken) {
      const creator = await creatorInfo(accessToken);
      const answer = await options.reads.call(`${base}/v2/user/info/?fields=open_id,union_id,avatar_url,display_name`, {
        method: "GET",
        bearer: accessToken,
      });
      const user = (dataOf(answer).user ?? {}) as Record<string, unknown>;
      const openId = typeof user.open_id === "string" ? user.open_id : "";
      if (!openId) throw new TikTokApiError(answer.status, "invalid_response", "TikTok did not name the creator.");
      const name = (typeof user.display_name === "string" && user.display_name) || creator.nickname;
      const picture = (typeof user.avatar_url === "string" && user.avatar_url) || creator.avatarUrl;
      return [
        {
          kind: "tiktok",
          remoteId: openId,
          name: creator.username ? `${name} (@${creator.username})` : name,
          ...(/^https:\/\//.test(picture) ? { pictureUrl: picture } : {}),
        },
      ];
    },

    async publish(accessToken, _channel, content, onRemoteRef) {
      const kind = postKind(content.media);
      if ("problem" in kind) return { state: "failed", reason: kind.problem, retryable: false };
      return refusalsAsOutcome(async () => {
        const creator = await creatorInfo(accessToken);
        const problem = optionsProblem(content.tiktok, creator);
        if (problem || !content.tiktok) return { state: "failed", reason: problem ?? "", retryable: false };
        if (kind.kind === "photo") {
          const answer = await init(
            "/v2/post/publish/content/init/",
            accessToken,
            photoInitBody(
              content.text,
              content.tiktok,
              creator,
              content.media.map((medium) => medium.url),
            ),
          );
          const error = apiErrorOf(answer);
          if (error) return failureOf(error, retryAfter(answer));
          const publishId = String(dataOf(answer).publish_id ?? "");
          if (!publishId) return { state: "failed", reason: "TikTok did not name the post.", retryable: false };
          await onRemoteRef(refOf(publishId));
          return settle(accessToken, refOf(publishId));
        }
        const video = content.media[0] as PostMedium;
        const answer = await init(
          "/v2/post/publish/video/init/",
          accessToken,
          videoInitBody(content.text, content.tiktok, creator, video.bytes),
        );
        const error = apiErrorOf(answer);
        if (error) return failureOf(error, retryAfter(answer));
        const data = dataOf(answer);
        const publishId = String(data.publish_id ?? "");
        const uploadUrl = String(data.upload_url ?? "");
        if (!publishId || !uploadUrl)
          return { state: "failed", reason: "TikTok did not name the post.", retryable: false };
        await onRemoteRef(refOf(publishId));
        return (await uploadVideo(video, uploadUrl)) ?? settle(accessToken, refOf(publishId));
      });
    },

    status: (accessToken, _channel, remoteRef) => statusOf(accessToken, remoteRef),

    async findRecent(accessToken, _channel, content, since) {
      const fields = "id,create_time,title,video_description,share_url";
      let cursor: number | undefined;
      for (let page = 0; page < FIND_PAGES; page++) {
        const answer = await options.reads.call(`${base}/v2/video/list/?fields=${fields}`, {
          method: "POST",
          bearer: accessToken,
          json: { max_count: 20, ...(cursor !== undefined ? { cursor } : {}) },
        });
        const data = dataOf(answer);
        const videos = Array.isArray(data.videos) ? (data.videos as Record<string, unknown>[]) : [];
        for (const video of videos) {
          const created = Number(video.create_time) * 1000;
          if (Number.isFinite(created) && created < since.getTime() - 60_000) return null;
          const listed = [video.video_description, video.title].filter((v): v is string => typeof v === "string");
          if (listed.some((text) => sameText(text, content.text))) return foundOf(video);
        }
        if (data.has_more !== true) return null;
        cursor = Number(data.cursor);
      }
      return null;
    },
  };
}
