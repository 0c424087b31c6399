import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local TikTok for tests: Login Kit v2 (OAuth 2.0) and the Content Posting and Display APIs, on
 * TikTok's paths (www.tiktok.com's and open.tiktokapis.com's on one origin: the account service's
 * `TIKTOK_BASE_URL` moves both hosts here, keeping their paths).
 *
 * Login Kit:
 * - `GET /v2/auth/authorize/`: `client_key`, `response_type=code`, `scope` (comma-separated),
 *   `redirect_uri`, `state`; redirects back with `code`, `scopes` and `state` (consent is
 *   automatic; `deny()` answers `error=access_denied`). A `code_challenge` (Login Kit for desktop)
 *   is kept and checked at the token endpoint.
 * - `POST /v2/oauth/token/` (form): `authorization_code` (single use, same `redirect_uri`) and
 *   `refresh_token` (rotating); answers TikTok's flat shape (`access_token`, `expires_in`,
 *   `open_id`, `refresh_expires_in`, `refresh_token`, `scope`, `token_type`), errors as
 *   `{ error, error_description, log_id }`.
 * - `POST /v2/oauth/revoke/` (form `client_key`, `client_secret`, `token`): ends the grant.
 * - `GET /v2/user/info/?fields=…`: the requested fields of the creator (`user.info.basic`).
 *
 * Content Posting API (Direct Post), scope `video.publish`, every answer in TikTok's envelope
 * `{ data, error: { code, message, log_id } }` (`code: "ok"` on success):
 * - `POST /v2/post/publish/creator_info/query/`: privacy level options, interactions disabled,
 *   the longest video;
 * - `POST /v2/post/publish/video/init/`: `post_info` (privacy level among the creator's options,
 *   title ≤ 2200) and `source_info` `FILE_UPLOAD` (`video_size`, `chunk_size`,
 *   `total_chunk_count` checked against the media transfer guide's chunk rules; answers an
 *   `upload_url`) or `PULL_FROM_URL` (`video_url`, its prefix verified when `verifiedUrlPrefixes`
 *   is set; the fake downloads it);
 * - `PUT {upload_url}`: one chunk, in order, `Content-Range: bytes first-last/total`; 206 until the
 *   last, then 201; a range out of order or of the wrong size is 416;
 * - `POST /v2/post/publish/content/init/`: a photo post (`media_type: PHOTO`, `post_mode`,
 *   `photo_images` 1–35 URLs pulled by the fake, `photo_cover_index`, title ≤ 90, description ≤ 4000);
 * - `POST /v2/post/publish/status/fetch/`: `PROCESSING_UPLOAD` → `PROCESSING_DOWNLOAD` →
 *   `PUBLISH_COMPLETE` (`publicaly_available_post_id`, TikTok's spelling, for public posts) or
 *   `SEND_TO_USER_INBOX` (`MEDIA_UPLOAD`), or `FAILED` with `fail_reason`; processing ends
 *   `processingMs` after the media is all there.
 * Display API, scope `video.list`: `POST /v2/video/list/?fields=…` (`max_count` ≤ 20, `cursor` a
 * create time in ms; newest first, `has_more`), listing the published posts.
 *
 * Errors as TikTok answers them: 401 `access_token_invalid` / `scope_not_authorized`, 400
 * `invalid_params`, 403 `privacy_level_option_mismatch`, `url_ownership_unverified`,
 * `spam_risk_too_many_posts` (more than `maxPostsPerDay` posts by a creator), 429
 * `rate_limit_exceeded`. For tests: `failNext`, `failNextPublish` (the next post ends FAILED),
 * `crashAfterAccept` (the next init is accepted, then the connection drops without an answer),
 * and counters (`postsOf`, `seen`).
 */
export interface TikTokCreator {
  openId: string;
  unionId: string;
  username: string;
  nickname: string;
  avatarUrl: string;
  privacyLevelOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number;
}

export interface TikTokServerOptions {
  clientKey: string;
  clientSecret: string;
  /** Seconds an access token lives (TikTok: 86400). */
  expiresIn?: number;
  creator?: Partial<TikTokCreator>;
  /** How long a post processes once its media is all there, in ms. */
  processingMs?: number;
  /** Posts a creator may make a day before `spam_risk_too_many_posts`. */
  maxPostsPerDay?: number;
  /** URL prefixes the app verified for PULL_FROM_URL; unset: any URL is accepted. */
  verifiedUrlPrefixes?: string[];
}

/** A post the fake accepted (one per publish_id). */
export interface TikTokPost {
  publishId: string;
  openId: string;
  kind: "video" | "photo";
  source: "FILE_UPLOAD" | "PULL_FROM_URL";
  postMode: "DIRECT_POST" | "MEDIA_UPLOAD";
  privacyLevel: string;
  title: string;
  description: string;
  /** The media's URLs (PULL_FROM_URL). */
  urls: string[];
  /** The video's size, and bytes received so far (FILE_UPLOAD) or pulled. */
  size: number;
  uploadedBytes: number;
  downloadedBytes: number;
  chunkSize: number;
  totalChunks: number;
  chunksReceived: number;
  /** When all its media was there (ms epoch); processing ends `processingMs` later. */
  mediaAt: number | null;
  /** The post's id once published. */
  postId: string;
  createTime: number;
  failReason: string;
  postInfo: Record<string, unknown>;
}

interface Grant {
  openId: string;
  scopes: string[];
  revoked: boolean;
}

interface CodeEntry {
  grant: Grant;
  redirectUri: string;
  challenge: string;
  used: boolean;
}

interface Failure {
  status: number;
  code: string;
  message: string;
  path?: string;
}

const MB = 1024 * 1024;
const PRIVACY_LEVELS = ["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY"];

export class LocalTikTokServer {
  private server: Server | undefined;
  private port = 0;
  private readonly codes = new Map<string, CodeEntry>();
  private readonly accessTokens = new Map<string, Grant>();
  private readonly refreshTokens = new Map<string, Grant>();
  private readonly posts = new Map<string, TikTokPost>();
  private readonly uploads = new Map<string, string>();
  private denying = false;
  private failures: Failure[] = [];
  private publishFailures: string[] = [];
  private crashes = 0;
  readonly creator: TikTokCreator;
  processingMs: number;
  /** What TikTok saw, for the tests to assert. */
  readonly seen = {
    authorize: 0,
    codeExchanges: 0,
    refreshes: 0,
    revoked: [] as string[],
    creatorInfo: 0,
    inits: 0,
    statusFetches: 0,
    chunks: 0,
    videoLists: 0,
    /** Every API error answered, by code. */
    errors: [] as string[],
    /** Every init's request body, as received. */
    initBodies: [] as unknown[],
  };

  constructor(private readonly options: TikTokServerOptions) {
    this.creator = {
      openId: "tt-open-1001",
      unionId: "tt-union-1001",
      username: "bikes.shop",
      nickname: "Bikes Shop",
      avatarUrl: "https://p16.tiktokcdn.example/avatar/bikes.jpeg",
      privacyLevelOptions: ["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "SELF_ONLY"],
      commentDisabled: false,
      duetDisabled: false,
      stitchDisabled: true,
      maxVideoPostDurationSec: 600,
      ...options.creator,
    };
    this.processingMs = options.processingMs ?? 200;
  }

  /** Listens on 127.0.0.1:`port` (0: any). @returns the port. */
  async start(port = 0): Promise<number> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: Error) => {
        if (!res.headersSent) this.apiError(res, { status: 500, code: "internal_error", message: error.message });
      });
    });
    this.server.listen(port, "127.0.0.1");
    await once(this.server, "listening");
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** The next authorizations answer `error=access_denied` until `deny(false)`. */
  deny(on = true): void {
    this.denying = on;
  }

  /**
   * The next `count` Content Posting / Display API calls answer this error instead (e.g. 429
   * `rate_limit_exceeded`, 403 `spam_risk_too_many_posts`, 500 `internal_error`).
   */
  failNext(
    count: number,
    status = 429,
    code = "rate_limit_exceeded",
    message = "The API rate limit was exceeded.",
    /** Only calls to this path fail (e.g. `/v2/post/publish/content/init/`); unset: any. */
    path?: string,
  ): void {
    for (let i = 0; i < count; i++) this.failures.push({ status, code, message, ...(path ? { path } : {}) });
  }

  /** The next accepted post ends FAILED with this `fail_reason` (e.g. `picture_size_check_failed`). */
  failNextPublish(reason: string): void {
    this.publishFailures.push(reason);
  }

  /** The next `count` inits are accepted (the post will be made), then the connection drops unanswered. */
  crashAfterAccept(count = 1): void {
    this.crashes = count;
  }

  /** A live access token for the creator, without the authorization dance (adapter tests). */
  issueToken(scopes: string[] = ["user.info.basic", "video.publish", "video.upload", "video.list"]): string {
    const access = token("act");
    this.accessTokens.set(access, { openId: this.creator.openId, scopes, revoked: false });
    return access;
  }

  /** Revokes every grant (the creator removed the app in TikTok). */
  revokeAll(): void {
    for (const grant of this.accessTokens.values()) grant.revoked = true;
  }

  /** Whether an access token is live. */
  isLive(accessToken: string): boolean {
    const grant = this.accessTokens.get(accessToken);
    return Boolean(grant && !grant.revoked);
  }

  /** The posts the creator has (accepted and not failed: published, or still processing). */
  postsOf(openId = this.creator.openId): TikTokPost[] {
    return [...this.posts.values()].filter((post) => post.openId === openId && this.statusOf(post) !== "FAILED");
  }

  /** Every post accepted, failed ones included. */
  allPosts(): TikTokPost[] {
    return [...this.posts.values()];
  }

  /** A post's status as `status/fetch` answers it now. */
  statusOf(post: TikTokPost): string {
    if (post.failReason) return "FAILED";
    if (post.mediaAt === null) return post.source === "FILE_UPLOAD" ? "PROCESSING_UPLOAD" : "PROCESSING_DOWNLOAD";
    if (Date.now() - post.mediaAt < this.processingMs) return "PROCESSING_DOWNLOAD";
    if (post.postMode === "MEDIA_UPLOAD") return "SEND_TO_USER_INBOX";
    if (!post.postId) post.postId = numericId();
    return "PUBLISH_COMPLETE";
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://local");
    const path = url.pathname;
    const method = req.method ?? "GET";
    if (method === "GET" && path === "/v2/auth/authorize/") return this.authorize(url, res);
    if (method === "POST" && path === "/v2/oauth/token/") return this.token(req, res);
    if (method === "POST" && path === "/v2/oauth/revoke/") return this.revoke(req, res);
    if (method === "PUT" && path === "/upload/") return this.upload(req, url, res);
    const routes: Record<string, (req: IncomingMessage, url: URL, res: ServerResponse, grant: Grant) => Promise<void>> =
      {
        "GET /v2/user/info/": (_req, u, r, g) => this.userInfo(u, r, g),
        "POST /v2/post/publish/creator_info/query/": (_req, _u, r, g) => this.creatorInfo(r, g),
        "POST /v2/post/publish/video/init/": (q, _u, r, g) => this.videoInit(q, r, g),
        "POST /v2/post/publish/content/init/": (q, _u, r, g) => this.contentInit(q, r, g),
        "POST /v2/post/publish/status/fetch/": (q, _u, r, g) => this.statusFetch(q, r, g),
        "POST /v2/video/list/": (q, u, r, g) => this.videoList(q, u, r, g),
      };
    const route = routes[`${method} ${path}`];
    if (!route) return this.apiError(res, { status: 404, code: "invalid_params", message: "Unknown path." });
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const grant = this.accessTokens.get(bearer);
    if (!grant || grant.revoked) {
      return this.apiError(res, {
        status: 401,
        code: "access_token_invalid",
        message: "The access token is invalid or not found in the request.",
      });
    }
    const index = this.failures.findIndex((f) => !f.path || f.path === path);
    const failure = index >= 0 ? this.failures.splice(index, 1)[0] : undefined;
    if (failure) {
      if (failure.status === 429) res.setHeader("retry-after", "1");
      return this.apiError(res, failure);
    }
    return route(req, url, res, grant);
  }

  // --- Login Kit -------------------------------------------------------------------------------

  private authorize(url: URL, res: ServerResponse): void {
    this.seen.authorize += 1;
    const q = url.searchParams;
    const redirectUri = q.get("redirect_uri") ?? "";
    if (q.get("client_key") !== this.options.clientKey || !/^https?:\/\//.test(redirectUri)) {
      json(res, 400, { error: "invalid_request", error_description: "client_key or redirect_uri is invalid." });
      return;
    }
    const back = new URL(redirectUri);
    const state = q.get("state");
    if (state !== null) back.searchParams.set("state", state);
    const scopes = (q.get("scope") ?? "").split(",").filter(Boolean);
    if (this.denying) {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "The user denied the authorization.");
    } else if (q.get("response_type") !== "code") {
      back.searchParams.set("error", "invalid_request");
      back.searchParams.set("error_description", "response_type must be code.");
    } else if (scopes.length === 0) {
      back.searchParams.set("error", "invalid_scope");
    } else {
      const code = token("code");
      this.codes.set(code, {
        grant: { openId: this.creator.openId, scopes, revoked: false },
        redirectUri,
        challenge: q.get("code_challenge") ?? "",
        used: false,
      });
      back.searchParams.set("code", code);
      back.searchParams.set("scopes", scopes.join(","));
    }
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private async token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await formOf(req);
    if (form.client_key !== this.options.clientKey || form.client_secret !== this.options.clientSecret) {
      return oauthError(res, "invalid_client", "Client key or secret is incorrect.");
    }
    if (form.grant_type === "authorization_code") {
      this.seen.codeExchanges += 1;
      const entry = this.codes.get(form.code ?? "");
      if (!entry || entry.used) return oauthError(res, "invalid_grant", "Authorization code is expired.");
      if (entry.redirectUri !== form.redirect_uri) return oauthError(res, "invalid_request", "Redirect URI mismatch.");
      if (entry.challenge) {
        // Login Kit for desktop: the challenge is the verifier's SHA-256 in hex (not RFC 7636's base64url).
        const digest = createHash("sha256")
          .update(form.code_verifier ?? "")
          .digest("hex");
        if (digest !== entry.challenge) return oauthError(res, "invalid_grant", "Code verifier is invalid.");
      }
      entry.used = true;
      return this.issue(res, entry.grant);
    }
    if (form.grant_type === "refresh_token") {
      this.seen.refreshes += 1;
      const grant = this.refreshTokens.get(form.refresh_token ?? "");
      if (!grant || grant.revoked) return oauthError(res, "invalid_grant", "Refresh token is invalid or expired.");
      this.refreshTokens.delete(form.refresh_token ?? "");
      return this.issue(res, grant);
    }
    return oauthError(res, "unsupported_grant_type", "Grant type is not supported.");
  }

  private issue(res: ServerResponse, grant: Grant): void {
    const access = token("act");
    const refresh = token("rft");
    this.accessTokens.set(access, grant);
    this.refreshTokens.set(refresh, grant);
    json(res, 200, {
      access_token: access,
      expires_in: this.options.expiresIn ?? 86_400,
      open_id: grant.openId,
      refresh_expires_in: 31_536_000,
      refresh_token: refresh,
      scope: grant.scopes.join(","),
      token_type: "Bearer",
    });
  }

  private async revoke(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await formOf(req);
    if (form.client_key !== this.options.clientKey || form.client_secret !== this.options.clientSecret) {
      return oauthError(res, "invalid_client", "Client key or secret is incorrect.");
    }
    const value = form.token ?? "";
    const grant = this.accessTokens.get(value) ?? this.refreshTokens.get(value);
    if (!grant) return oauthError(res, "invalid_request", "Token is invalid.");
    grant.revoked = true;
    this.seen.revoked.push(value);
    res.writeHead(200, { "content-type": "application/json" });
    res.end();
  }

  private async userInfo(url: URL, res: ServerResponse, grant: Grant): Promise<void> {
    if (!grant.scopes.includes("user.info.basic")) return this.scopeMissing(res, "user.info.basic");
    const fields = (url.searchParams.get("fields") ?? "").split(",").filter(Boolean);
    if (fields.length === 0) return this.invalid(res, "fields is required.");
    const all: Record<string, unknown> = {
      open_id: this.creator.openId,
      union_id: this.creator.unionId,
      avatar_url: this.creator.avatarUrl,
      display_name: this.creator.nickname,
      username: this.creator.username,
    };
    const user = Object.fromEntries(fields.filter((field) => field in all).map((field) => [field, all[field]]));
    this.ok(res, { user });
  }

  // --- Content Posting API ---------------------------------------------------------------------

  private async creatorInfo(res: ServerResponse, grant: Grant): Promise<void> {
    if (!grant.scopes.includes("video.publish")) return this.scopeMissing(res, "video.publish");
    this.seen.creatorInfo += 1;
    if (this.postsToday(grant.openId) >= this.maxPostsPerDay()) return this.tooManyPosts(res);
    const c = this.creator;
    this.ok(res, {
      creator_avatar_url: c.avatarUrl,
      creator_username: c.username,
      creator_nickname: c.nickname,
      privacy_level_options: c.privacyLevelOptions,
      comment_disabled: c.commentDisabled,
      duet_disabled: c.duetDisabled,
      stitch_disabled: c.stitchDisabled,
      max_video_post_duration_sec: c.maxVideoPostDurationSec,
    });
  }

  private async videoInit(req: IncomingMessage, res: ServerResponse, grant: Grant): Promise<void> {
    if (!grant.scopes.includes("video.publish")) return this.scopeMissing(res, "video.publish");
    const body = await jsonOf(req);
    if (!body) return this.invalid(res, "The request body is not JSON.");
    this.seen.initBodies.push(body);
    const postInfo = objectOf(body.post_info);
    const sourceInfo = objectOf(body.source_info);
    const checked = this.checkPostInfo(res, postInfo, 2200);
    if (!checked) return;
    const source = sourceInfo.source;
    const post = this.newPost(grant, "video", checked.privacyLevel, postInfo);
    post.title = String(postInfo.title ?? "");
    post.description = post.title;
    if (source === "FILE_UPLOAD") {
      const size = Number(sourceInfo.video_size);
      const chunk = Number(sourceInfo.chunk_size);
      const count = Number(sourceInfo.total_chunk_count);
      const problem = chunkProblem(size, chunk, count);
      if (problem) return this.invalid(res, problem);
      Object.assign(post, { source, size, chunkSize: chunk, totalChunks: count });
    } else if (source === "PULL_FROM_URL") {
      const videoUrl = typeof sourceInfo.video_url === "string" ? sourceInfo.video_url : "";
      if (!/^https?:\/\//.test(videoUrl)) return this.invalid(res, "video_url is invalid.");
      if (!this.verified(videoUrl)) return this.unverified(res);
      Object.assign(post, { source, urls: [videoUrl] });
    } else {
      return this.invalid(res, "source must be FILE_UPLOAD or PULL_FROM_URL.");
    }
    if (this.postsToday(grant.openId) >= this.maxPostsPerDay()) return this.tooManyPosts(res);
    this.accept(post);
    if (post.source === "PULL_FROM_URL") void this.pull(post);
    const data: Record<string, unknown> = { publish_id: post.publishId };
    if (post.source === "FILE_UPLOAD") {
      const uploadToken = token("up");
      this.uploads.set(uploadToken, post.publishId);
      data.upload_url = `http://${req.headers.host ?? `127.0.0.1:${this.port}`}/upload/?upload_id=${post.publishId}&upload_token=${uploadToken}`;
    }
    if (this.crash(res)) return;
    this.ok(res, data);
  }

  private async contentInit(req: IncomingMessage, res: ServerResponse, grant: Grant): Promise<void> {
    const body = await jsonOf(req);
    if (!body) return this.invalid(res, "The request body is not JSON.");
    this.seen.initBodies.push(body);
    const postMode = body.post_mode;
    if (postMode !== "DIRECT_POST" && postMode !== "MEDIA_UPLOAD")
      return this.invalid(res, "post_mode must be DIRECT_POST or MEDIA_UPLOAD.");
    const needed = postMode === "DIRECT_POST" ? "video.publish" : "video.upload";
    if (!grant.scopes.includes(needed)) return this.scopeMissing(res, needed);
    if (body.media_type !== "PHOTO") return this.invalid(res, "media_type must be PHOTO.");
    const postInfo = objectOf(body.post_info);
    const sourceInfo = objectOf(body.source_info);
    let privacyLevel = "";
    if (postMode === "DIRECT_POST") {
      const checked = this.checkPostInfo(res, postInfo, 90);
      if (!checked) return;
      privacyLevel = checked.privacyLevel;
    }
    const description = postInfo.description ?? "";
    if (typeof description !== "string" || [...description].length > 4000)
      return this.invalid(res, "description is longer than 4000 characters.");
    if (sourceInfo.source !== "PULL_FROM_URL") return this.invalid(res, "Photos can only be PULL_FROM_URL.");
    const images = Array.isArray(sourceInfo.photo_images) ? sourceInfo.photo_images : [];
    if (
      images.length < 1 ||
      images.length > 35 ||
      !images.every((u) => typeof u === "string" && /^https?:\/\//.test(u))
    )
      return this.invalid(res, "photo_images must be 1 to 35 URLs.");
    const cover = Number(sourceInfo.photo_cover_index ?? 0);
    if (!Number.isInteger(cover) || cover < 0 || cover >= images.length)
      return this.invalid(res, "photo_cover_index is out of range.");
    if (!images.every((u) => this.verified(u as string))) return this.unverified(res);
    if (this.postsToday(grant.openId) >= this.maxPostsPerDay()) return this.tooManyPosts(res);
    const post = this.newPost(grant, "photo", privacyLevel, postInfo);
    Object.assign(post, {
      source: "PULL_FROM_URL",
      postMode,
      urls: images,
      title: String(postInfo.title ?? ""),
      description,
    });
    this.accept(post);
    void this.pull(post);
    if (this.crash(res)) return;
    this.ok(res, { publish_id: post.publishId });
  }

  private async upload(req: IncomingMessage, url: URL, res: ServerResponse): Promise<void> {
    const publishId = this.uploads.get(url.searchParams.get("upload_token") ?? "");
    const post = publishId ? this.posts.get(publishId) : undefined;
    const bytes = await bodyOf(req);
    if (!post || url.searchParams.get("upload_id") !== publishId) {
      return this.apiError(res, { status: 404, code: "invalid_params", message: "The upload URL is invalid." });
    }
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(req.headers["content-range"] ?? "");
    const type = req.headers["content-type"] ?? "";
    if (!["video/mp4", "video/quicktime", "video/webm"].includes(type)) {
      return this.apiError(res, { status: 400, code: "invalid_file_upload", message: "Unsupported content type." });
    }
    if (!range || post.mediaAt !== null) return this.rangeError(res);
    const first = Number(range[1]);
    const last = Number(range[2]);
    const total = Number(range[3]);
    const index = post.chunksReceived;
    const isLast = index === post.totalChunks - 1;
    const expectedFirst = index * post.chunkSize;
    const expectedLast = isLast ? post.size - 1 : expectedFirst + post.chunkSize - 1;
    if (total !== post.size || first !== expectedFirst || last !== expectedLast || bytes.length !== last - first + 1) {
      return this.rangeError(res);
    }
    this.seen.chunks += 1;
    post.chunksReceived += 1;
    post.uploadedBytes += bytes.length;
    if (post.chunksReceived < post.totalChunks) {
      res.writeHead(206);
      return void res.end();
    }
    this.mediaArrived(post);
    res.writeHead(201);
    res.end();
  }

  private async statusFetch(req: IncomingMessage, res: ServerResponse, grant: Grant): Promise<void> {
    this.seen.statusFetches += 1;
    const body = await jsonOf(req);
    const post = this.posts.get(typeof body?.publish_id === "string" ? body.publish_id : "");
    if (!post || post.openId !== grant.openId) return this.invalid(res, "publish_id is invalid.");
    const status = this.statusOf(post);
    this.ok(res, {
      status,
      ...(status === "FAILED" ? { fail_reason: post.failReason } : {}),
      publicaly_available_post_id:
        status === "PUBLISH_COMPLETE" && post.privacyLevel === "PUBLIC_TO_EVERYONE" ? [Number(post.postId)] : [],
      uploaded_bytes: post.uploadedBytes,
      downloaded_bytes: post.downloadedBytes,
    });
  }

  private async videoList(req: IncomingMessage, url: URL, res: ServerResponse, grant: Grant): Promise<void> {
    if (!grant.scopes.includes("video.list")) return this.scopeMissing(res, "video.list");
    this.seen.videoLists += 1;
    const fields = (url.searchParams.get("fields") ?? "").split(",").filter(Boolean);
    if (fields.length === 0) return this.invalid(res, "fields is required.");
    const body = (await jsonOf(req)) ?? {};
    const max = body.max_count === undefined ? 10 : Number(body.max_count);
    if (!Number.isInteger(max) || max < 1 || max > 20) return this.invalid(res, "max_count must be 1 to 20.");
    const cursor = body.cursor === undefined ? Number.POSITIVE_INFINITY : Number(body.cursor);
    const published = [...this.posts.values()]
      .filter((post) => post.openId === grant.openId && this.statusOf(post) === "PUBLISH_COMPLETE")
      .filter((post) => post.createTime * 1000 < cursor)
      .sort((a, b) => b.createTime - a.createTime || Number(b.postId) - Number(a.postId));
    const page = published.slice(0, max);
    const videos = page.map((post) => {
      const all: Record<string, unknown> = {
        id: post.postId,
        create_time: post.createTime,
        title: post.title,
        video_description: post.description,
        share_url: `https://www.tiktok.com/@${this.creator.username}/${post.kind === "photo" ? "photo" : "video"}/${post.postId}`,
        cover_image_url: "https://p16.tiktokcdn.example/cover.jpeg",
        duration: post.kind === "video" ? 15 : 0,
      };
      return Object.fromEntries(fields.filter((field) => field in all).map((field) => [field, all[field]]));
    });
    const lastPost = page.at(-1);
    this.ok(res, {
      videos,
      cursor: lastPost ? lastPost.createTime * 1000 : 0,
      has_more: published.length > page.length,
    });
  }

  // --- posts -----------------------------------------------------------------------------------

  private checkPostInfo(
    res: ServerResponse,
    postInfo: Record<string, unknown>,
    maxTitle: number,
  ): { privacyLevel: string } | null {
    const privacyLevel = postInfo.privacy_level;
    if (typeof privacyLevel !== "string" || !PRIVACY_LEVELS.includes(privacyLevel)) {
      this.invalid(res, "privacy_level is required.");
      return null;
    }
    if (!this.creator.privacyLevelOptions.includes(privacyLevel)) {
      this.apiError(res, {
        status: 403,
        code: "privacy_level_option_mismatch",
        message: "privacy_level is not among the creator's privacy_level_options.",
      });
      return null;
    }
    const title = postInfo.title ?? "";
    if (typeof title !== "string" || [...title].length > maxTitle) {
      this.invalid(res, `title is longer than ${maxTitle} characters.`);
      return null;
    }
    return { privacyLevel };
  }

  private newPost(grant: Grant, kind: "video" | "photo", privacyLevel: string, postInfo: Record<string, unknown>) {
    const post: TikTokPost = {
      publishId: `${kind === "photo" ? "p_pub_url" : "v_pub"}~v2-1.${numericId()}`,
      openId: grant.openId,
      kind,
      source: "FILE_UPLOAD",
      postMode: "DIRECT_POST",
      privacyLevel,
      title: "",
      description: "",
      urls: [],
      size: 0,
      uploadedBytes: 0,
      downloadedBytes: 0,
      chunkSize: 0,
      totalChunks: 0,
      chunksReceived: 0,
      mediaAt: null,
      postId: "",
      createTime: Math.floor(Date.now() / 1000),
      failReason: "",
      postInfo,
    };
    return post;
  }

  private accept(post: TikTokPost): void {
    this.seen.inits += 1;
    this.posts.set(post.publishId, post);
  }

  /** Drops the connection without an answer when a crash was asked for. */
  private crash(res: ServerResponse): boolean {
    if (this.crashes <= 0) return false;
    this.crashes -= 1;
    res.socket?.destroy();
    return true;
  }

  /** TikTok downloads PULL_FROM_URL media; an unreachable or non-media URL fails the post. */
  private async pull(post: TikTokPost): Promise<void> {
    try {
      for (const url of post.urls) {
        const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
        const bytes = new Uint8Array(await response.arrayBuffer());
        const type = response.headers.get("content-type") ?? "";
        const wanted = post.kind === "photo" ? /^image\/(jpeg|webp)/ : /^video\//;
        if (!response.ok) {
          post.failReason = post.kind === "photo" ? "photo_pull_failed" : "video_pull_failed";
          return;
        }
        if (!wanted.test(type)) {
          post.failReason = "file_format_check_failed";
          return;
        }
        post.downloadedBytes += bytes.length;
      }
      this.mediaArrived(post);
    } catch {
      post.failReason = post.kind === "photo" ? "photo_pull_failed" : "video_pull_failed";
    }
  }

  private mediaArrived(post: TikTokPost): void {
    post.mediaAt = Date.now();
    const reason = this.publishFailures.shift();
    if (reason) post.failReason = reason;
  }

  private verified(url: string): boolean {
    const prefixes = this.options.verifiedUrlPrefixes;
    return !prefixes || prefixes.some((prefix) => url.startsWith(prefix));
  }

  private postsToday(openId: string): number {
    const since = Date.now() / 1000 - 86_400;
    return [...this.posts.values()].filter((post) => post.openId === openId && post.createTime >= since).length;
  }

  private maxPostsPerDay(): number {
    return this.options.maxPostsPerDay ?? 15;
  }

  // --- answers ---------------------------------------------------------------------------------

  private ok(res: ServerResponse, data: unknown): void {
    json(res, 200, { data, error: { code: "ok", message: "", log_id: logId() } });
  }

  private apiError(res: ServerResponse, failure: Failure): void {
    this.seen.errors.push(failure.code);
    json(res, failure.status, { data: {}, error: { code: failure.code, message: failure.message, log_id: logId() } });
  }

  private invalid(res: ServerResponse, message: string): void {
    this.apiError(res, { status: 400, code: "invalid_params", message });
  }

  private scopeMissing(res: ServerResponse, scope: string): void {
    this.apiError(res, { status: 401, code: "scope_not_authorized", message: `The user did not authorize ${scope}.` });
  }

  private unverified(res: ServerResponse): void {
    this.apiError(res, {
      status: 403,
      code: "url_ownership_unverified",
      message: "The domain or URL prefix of the media URL is not verified.",
    });
  }

  private tooManyPosts(res: ServerResponse): void {
    this.apiError(res, {
      status: 403,
      code: "spam_risk_too_many_posts",
      message: "The daily post cap from the API is reached for the current user.",
    });
  }

  private rangeError(res: ServerResponse): void {
    this.seen.errors.push("range_not_satisfiable");
    res.writeHead(416);
    res.end();
  }
}

/**
 * Why a FILE_UPLOAD's sizes break the media transfer guide's chunk rules, or null: chunks of 5 to
 * 64 MB (a video under 5 MB is one chunk of its size), `total_chunk_count` = ⌊video_size /
 * chunk_size⌋ between 1 and 1000, the last chunk taking the rest (at most 128 MB).
 */
export function chunkProblem(size: number, chunk: number, count: number): string | null {
  if (![size, chunk, count].every((n) => Number.isSafeInteger(n) && n > 0))
    return "video_size, chunk_size and total_chunk_count are required.";
  if (size > 4096 * MB) return "video_size is larger than 4 GB.";
  if (size < 5 * MB) return chunk === size && count === 1 ? null : "A video under 5 MB is uploaded whole.";
  if (chunk < 5 * MB || chunk > 64 * MB) {
    if (!(chunk === size && count === 1 && size <= 64 * MB)) return "chunk_size must be 5 to 64 MB.";
  }
  if (count !== Math.floor(size / chunk)) return "total_chunk_count must be video_size / chunk_size, rounded down.";
  if (count > 1000) return "total_chunk_count is more than 1000.";
  if (size - (count - 1) * chunk > 128 * MB) return "The last chunk is larger than 128 MB.";
  return null;
}

const token = (prefix: string) => `${prefix}.${randomBytes(18).toString("base64url")}`;
let lastId = 7_300_000_000_000_000_000n;
/** TikTok's ids are 19-digit numbers. */
const numericId = () => {
  lastId += BigInt(1 + Math.floor(Math.random() * 1000));
  return lastId.toString();
};
const logId = () => `2026${randomBytes(13).toString("hex").toUpperCase()}`;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

function oauthError(res: ServerResponse, error: string, description: string): void {
  json(res, 400, { error, error_description: description, log_id: logId() });
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function formOf(req: IncomingMessage): Promise<Record<string, string>> {
  return Object.fromEntries(new URLSearchParams((await bodyOf(req)).toString("utf8")));
}

async function jsonOf(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  try {
    const value: unknown = JSON.parse((await bodyOf(req)).toString("utf8") || "{}");
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
