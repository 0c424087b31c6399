import type { ProviderAnswer, ProviderHttp } from "@crafter/kit";
import type { Channel, ChannelAdapter, FoundPost, PostContent, PublishOutcome } from "../../domain/social-channels";

/**
 * Facebook Pages and Instagram professional accounts through the Graph API (v21.0):
 * - channels: the user's Pages (`GET /me/accounts`, cursor paging) and each Page's Instagram
 *   account (`GET /{page-id}?fields=instagram_business_account`, then `/{ig-user-id}?fields=username`);
 * - a Page post: its Page access token (`GET /{page-id}?fields=access_token`), then
 *   `POST /{page-id}/photos` (url, caption) with an image or `POST /{page-id}/feed` (message);
 * - an Instagram post: `POST /{ig-user-id}/media` (image_url, caption) makes a container, polled
 *   (`GET /{container-id}?fields=status_code`) until FINISHED, then `POST /{ig-user-id}/media_publish`;
 * - recent posts: `GET /{page-id}/posts?since=` and `GET /{ig-user-id}/media`, matched by their text.
 *
 * Remote refs: `post:<page-post-id>`, `container:<id>`, `media:<ig-media-id>`. Publishing calls are
 * made once (`writes`, no retry on 5xx: Meta may have made the post); reads retry (`reads`).
 */
export interface MetaAdapterOptions {
  /** Provider calls that are safe to repeat (reads). */
  reads: ProviderHttp;
  /** Publishing calls, made once each. */
  writes: ProviderHttp;
  /** Graph's origin (https://graph.facebook.com; a test's local server). */
  baseUrl: string;
  version?: string;
  /** How often, and how many times, an Instagram container is asked whether it is ready. */
  pollMs?: number;
  polls?: number;
  sleep?: (ms: number) => Promise<void>;
}

interface GraphErrorBody {
  message?: string;
  code?: number;
  error_subcode?: number;
  is_transient?: boolean;
}

/** Graph error codes worth trying again later: throttling, temporary errors, server trouble. */
const RETRYABLE_CODES = new Set([1, 2, 4, 17, 32, 341, 368, 613, 9007, 80001]);
/** Instagram subcodes that ask for a new container and another try. */
const RETRYABLE_SUBCODES = new Set([2207001, 2207003, 2207020, 2207027, 2207032, 2207053]);

/** The reason and retryability of a Graph error answer. */
export function graphFailure(answer: ProviderAnswer): Extract<PublishOutcome, { state: "failed" }> {
  const error = ((answer.json as { error?: GraphErrorBody } | null)?.error ?? {}) as GraphErrorBody;
  const reason = (error.message || `Meta answered HTTP ${answer.status}`).slice(0, 500);
  const retryable =
    answer.status === 429 ||
    answer.status >= 500 ||
    error.is_transient === true ||
    RETRYABLE_CODES.has(Number(error.code)) ||
    RETRYABLE_SUBCODES.has(Number(error.error_subcode));
  return { state: "failed", reason, retryable };
}

const ok = (answer: ProviderAnswer) => answer.status >= 200 && answer.status < 300 && answer.json !== null;
const field = (json: unknown, name: string): string => {
  const value = (json as Record<string, unknown> | null)?.[name];
  return typeof value === "string" ? value : "";
};

/** Text as both sides compare it: trimmed, line ends and runs of spaces made one. */
export function comparable(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t]+/g, " ")
    .trim();
}

export function metaAdapter(options: MetaAdapterOptions): ChannelAdapter {
  const root = `${options.baseUrl.replace(/\/$/, "")}/${options.version ?? "v21.0"}`;
  const pollMs = options.pollMs ?? 1000;
  const polls = options.polls ?? 30;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  const url = (path: string, query: Record<string, string>) => {
    const target = new URL(`${root}/${path}`);
    for (const [key, value] of Object.entries(query)) target.searchParams.set(key, value);
    return target.toString();
  };
  const get = (path: string, token: string, query: Record<string, string> = {}) =>
    options.reads.call(url(path, query), { method: "GET", bearer: token });
  const post = (path: string, token: string, form: Record<string, string>) =>
    options.writes.call(url(path, {}), { method: "POST", bearer: token, form: new URLSearchParams(form).toString() });

  async function pageToken(userToken: string, pageId: string): Promise<string | ProviderAnswer> {
    const answer = await get(encodeURIComponent(pageId), userToken, { fields: "access_token" });
    const token = field(answer.json, "access_token");
    return ok(answer) && token ? token : answer;
  }

  async function permalinkOf(token: string, id: string, name: "permalink" | "permalink_url"): Promise<string> {
    try {
      const answer = await get(encodeURIComponent(id), token, { fields: name });
      const link = field(answer.json, name);
      return /^https:\/\//.test(link) ? link : "";
    } catch {
      return "";
    }
  }

  async function publishToPage(
    userToken: string,
    channel: Channel,
    content: PostContent,
    onRemoteRef: (ref: string) => Promise<void>,
  ): Promise<PublishOutcome> {
    const token = await pageToken(userToken, channel.remoteId);
    if (typeof token !== "string") return graphFailure(token);
    const image = content.media.find((medium) => medium.kind === "image");
    const answer = image
      ? await post(`${encodeURIComponent(channel.remoteId)}/photos`, token, {
          url: image.url,
          caption: content.text,
          published: "true",
        })
      : await post(`${encodeURIComponent(channel.remoteId)}/feed`, token, { message: content.text, published: "true" });
    if (!ok(answer)) return graphFailure(answer);
    // /photos names the photo and its post; /feed the post.
    const postId = field(answer.json, "post_id") || field(answer.json, "id");
    if (!postId) return { state: "failed", reason: "Meta accepted the post without naming it", retryable: false };
    await onRemoteRef(`post:${postId}`);
    const permalink = await permalinkOf(token, postId, "permalink_url");
    return { state: "published", remotePostId: postId, ...(permalink ? { permalink } : {}) };
  }

  /** Polls a container until FINISHED; the outcome when it ends otherwise, null when ready. */
  async function waitForContainer(token: string, containerId: string): Promise<PublishOutcome | null> {
    for (let poll = 0; poll < polls; poll++) {
      const answer = await get(encodeURIComponent(containerId), token, { fields: "status_code,status" });
      if (!ok(answer)) return graphFailure(answer);
      const status = field(answer.json, "status_code");
      if (status === "FINISHED") return null;
      if (status === "ERROR" || status === "EXPIRED")
        return {
          state: "failed",
          reason: field(answer.json, "status") || `Instagram: ${status}`,
          retryable: status === "EXPIRED",
        };
      if (status === "PUBLISHED") return { state: "processing", remoteRef: `container:${containerId}` };
      await sleep(pollMs);
    }
    return { state: "failed", reason: "Instagram is still processing the image; try again.", retryable: true };
  }

  async function publishToInstagram(
    userToken: string,
    channel: Channel,
    content: PostContent,
    onRemoteRef: (ref: string) => Promise<void>,
  ): Promise<PublishOutcome> {
    const image = content.media.find((medium) => medium.kind === "image");
    if (!image) return { state: "failed", reason: "An Instagram post needs an image.", retryable: false };
    const igUser = encodeURIComponent(channel.remoteId);
    const created = await post(`${igUser}/media`, userToken, { image_url: image.url, caption: content.text });
    if (!ok(created)) return graphFailure(created);
    const containerId = field(created.json, "id");
    if (!containerId) return { state: "failed", reason: "Instagram made no media container", retryable: true };
    await onRemoteRef(`container:${containerId}`);
    const waited = await waitForContainer(userToken, containerId);
    if (waited) return waited;
    const published = await post(`${igUser}/media_publish`, userToken, { creation_id: containerId });
    if (!ok(published)) return graphFailure(published);
    const mediaId = field(published.json, "id");
    if (!mediaId) return { state: "failed", reason: "Instagram published without naming the post", retryable: false };
    await onRemoteRef(`media:${mediaId}`);
    const permalink = await permalinkOf(userToken, mediaId, "permalink");
    return { state: "published", remotePostId: mediaId, ...(permalink ? { permalink } : {}) };
  }

  return {
    provider: "meta",
    kinds: ["facebook_page", "instagram"],

    async listChannels(accessToken) {
      const channels: Channel[] = [];
      let after = "";
      // At most 10 pages of 100: a business with more Pages picks among the first thousand.
      for (let round = 0; round < 10; round++) {
        const answer = await get("me/accounts", accessToken, {
          fields: "id,name,picture{url}",
          limit: "100",
          ...(after ? { after } : {}),
        });
        if (!ok(answer)) throw new Error(graphFailure(answer).reason);
        const body = answer.json as {
          data?: Array<{ id?: string; name?: string; picture?: { data?: { url?: string } } }>;
          paging?: { cursors?: { after?: string }; next?: string };
        };
        for (const page of body.data ?? []) {
          if (!page.id) continue;
          const picture = page.picture?.data?.url;
          channels.push({
            kind: "facebook_page",
            remoteId: page.id,
            name: page.name ?? page.id,
            ...(picture?.startsWith("https://") ? { pictureUrl: picture } : {}),
          });
        }
        after = body.paging?.next ? (body.paging.cursors?.after ?? "") : "";
        if (!after) break;
      }
      for (const page of channels.filter((c) => c.kind === "facebook_page")) {
        const linked = await get(encodeURIComponent(page.remoteId), accessToken, {
          fields: "instagram_business_account",
        });
        const igId = (linked.json as { instagram_business_account?: { id?: string } } | null)
          ?.instagram_business_account?.id;
        if (!ok(linked) || !igId) continue;
        const profile = await get(encodeURIComponent(igId), accessToken, { fields: "username" });
        const username = field(profile.json, "username");
        channels.push({
          kind: "instagram",
          remoteId: igId,
          name: username ? `@${username}` : `Instagram of ${page.name}`,
        });
      }
      return channels;
    },

    publish(accessToken, channel, content, onRemoteRef) {
      if (channel.kind === "facebook_page") return publishToPage(accessToken, channel, content, onRemoteRef);
      if (channel.kind === "instagram") return publishToInstagram(accessToken, channel, content, onRemoteRef);
      return Promise.resolve({ state: "failed", reason: `Meta does not publish to ${channel.kind}`, retryable: false });
    },

    async status(accessToken, channel, remoteRef) {
      const [kind, id = ""] = remoteRef.split(/:(.*)/s);
      if (kind === "post" || kind === "media") {
        const token = kind === "post" ? await pageToken(accessToken, channel.remoteId) : accessToken;
        if (typeof token !== "string") return graphFailure(token);
        const name = kind === "post" ? "permalink_url" : "permalink";
        const answer = await get(encodeURIComponent(id), token, { fields: name });
        if (!ok(answer)) return graphFailure(answer);
        const link = field(answer.json, name);
        return { state: "published", remotePostId: id, ...(link ? { permalink: link } : {}) };
      }
      if (kind === "container") {
        const answer = await get(encodeURIComponent(id), accessToken, { fields: "status_code,status" });
        if (!ok(answer)) return graphFailure(answer);
        const status = field(answer.json, "status_code");
        if (status === "ERROR" || status === "EXPIRED")
          return { state: "failed", reason: field(answer.json, "status") || `Instagram: ${status}`, retryable: true };
        return { state: "processing", remoteRef };
      }
      return { state: "failed", reason: `Unknown reference ${remoteRef.slice(0, 40)}`, retryable: false };
    },

    async findRecent(accessToken, channel, content, since) {
      const wanted = comparable(content.text);
      const sinceSeconds = String(Math.floor(since.getTime() / 1000));
      if (channel.kind === "facebook_page") {
        const token = await pageToken(accessToken, channel.remoteId);
        if (typeof token !== "string") throw new Error(graphFailure(token).reason);
        const answer = await get(`${encodeURIComponent(channel.remoteId)}/posts`, token, {
          fields: "id,message,permalink_url,created_time",
          since: sinceSeconds,
          limit: "50",
        });
        if (!ok(answer)) throw new Error(graphFailure(answer).reason);
        const found = ((answer.json as { data?: Array<Record<string, unknown>> }).data ?? []).find(
          (item) => comparable(String(item.message ?? "")) === wanted,
        );
        return found ? foundPost(found.id, found.permalink_url) : null;
      }
      const answer = await get(`${encodeURIComponent(channel.remoteId)}/media`, accessToken, {
        fields: "id,caption,permalink,timestamp",
        limit: "50",
      });
      if (!ok(answer)) throw new Error(graphFailure(answer).reason);
      const found = ((answer.json as { data?: Array<Record<string, unknown>> }).data ?? []).find(
        (item) =>
          comparable(String(item.caption ?? "")) === wanted &&
          Date.parse(String(item.timestamp ?? "")) >= since.getTime() - 1000,
      );
      return found ? foundPost(found.id, found.permalink) : null;
    },
  };
}

function foundPost(id: unknown, permalink: unknown): FoundPost | null {
  if (typeof id !== "string" || !id) return null;
  return { remotePostId: id, ...(typeof permalink === "string" && permalink ? { permalink } : {}) };
}
