import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local Graph API (Facebook Login, Pages, Instagram content publishing) for tests, on Meta's
 * paths with or without the version prefix (`/v21.0/…`), configured by base URL (`META_BASE_URL`
 * moves both www.facebook.com and graph.facebook.com here).
 *
 * - Facebook Login: `GET /dialog/oauth` (client id, http(s) redirect URI, `state` passed back;
 *   consent is automatic, `deny()` answers `error=access_denied`), `GET|POST /oauth/access_token`
 *   (the code, single use, with the same redirect URI and the client secret; or
 *   `grant_type=fb_exchange_token` for a long-lived token), `GET /me`, `DELETE /me/permissions`;
 *   tokens expire (`shortLivedMs`, `longLivedMs`): an expired one answers 190 / 463;
 * - Pages: `GET /me/accounts` (each Page with its Page access token, cursor paging),
 *   `GET /{page-id}?fields=…` (`instagram_business_account`, `access_token`, `name`),
 *   `POST /{page-id}/feed` (message, link, published) and `/{page-id}/photos` (url, caption or
 *   message, published) with a Page access token, `GET /{page-id}/feed|posts` (`since`, cursor paging);
 * - Instagram: `POST /{ig-user-id}/media` (image_url, caption → a container, IN_PROGRESS for
 *   `processingMs`, then FINISHED), `GET /{container-id}?fields=status_code`,
 *   `POST /{ig-user-id}/media_publish` (creation_id → the media id; a container publishes once),
 *   `GET /{ig-user-id}/media` (cursor paging), `GET /{media-id}?fields=permalink`;
 * - errors in Graph's shape `{ error: { message, type, code, error_subcode, fbtrace_id } }`: 190
 *   for a bad token, 100 for a bad parameter, 200 for publishing to a Page without its Page token,
 *   324 / 9004 (subcode 2207052) when the image cannot be fetched: like Meta, it fetches the image
 *   URL it is given (an image/* answer, 200), and a post whose image it cannot get is not made;
 * - `published` counts live posts per channel (Page id or Instagram user id);
 *   `crashAfterAccept(n)`: the next n publishing calls make their post, then close the socket
 *   without answering (the caller cannot know); `refuseNext(n, error)`: the next n publishing calls
 *   answer that Graph error and make nothing.
 *
 * Parameters are read from the query string and the form or JSON body alike, as Graph does.
 */
export interface MetaGraphOptions {
  clientId: string;
  clientSecret: string;
  user?: { id: string; name: string };
  /** The user's Pages; `instagram` links an Instagram professional account to the Page. */
  pages?: Array<{ id: string; name: string; instagram?: { id: string; username: string } }>;
  /** How long an Instagram container stays IN_PROGRESS (ms; default 300). */
  processingMs?: number;
  /** `/me/accounts` page size when the caller gives no `limit` (default 25). */
  pageSize?: number;
  /**
   * How long a short-lived user token (the code exchange's) lives, ms (default 5,400,000: Meta's
   * one to two hours). Page tokens had through it expire with it; after it, every call with them
   * and `fb_exchange_token` of it answer 190 / 463, as Meta does.
   */
  shortLivedMs?: number;
  /** How long a long-lived user token lives, ms (default 5,183,944,000: about 60 days). */
  longLivedMs?: number;
}

/** A Graph error as Meta answers it. */
export interface GraphError {
  status: number;
  message: string;
  type: string;
  code: number;
  error_subcode?: number;
}

/** A post the fake made, as tests read it. */
export interface FakePost {
  id: string;
  channel: string;
  kind: "page_feed" | "page_photo" | "instagram";
  message: string;
  imageUrl: string;
  published: boolean;
  createdAt: Date;
  permalink: string;
}

interface TokenGrant {
  kind: "user" | "page";
  pageId?: string;
  longLived: boolean;
  revoked: boolean;
  /** Epoch ms after which Graph refuses it (Infinity: never; a Page token of a long-lived user token). */
  expiresAt: number;
}

interface Container {
  id: string;
  igUserId: string;
  imageUrl: string;
  caption: string;
  readyAt: number;
  state: "IN_PROGRESS" | "FINISHED" | "PUBLISHED" | "ERROR";
  mediaId?: string;
}

const DEFAULT_PAGES = [
  { id: "101000000000001", name: "Town Bikes", instagram: { id: "17841400000000001", username: "townbikes" } },
  { id: "101000000000002", name: "Town Bikes Repairs" },
];

export class LocalMetaGraph {
  private server: Server | undefined;
  private readonly codes = new Map<string, { redirectUri: string; scope: string; used: boolean }>();
  private readonly tokens = new Map<string, TokenGrant>();
  private readonly containers = new Map<string, Container>();
  private readonly posts: FakePost[] = [];
  private denying = false;
  private crashes = 0;
  private refusals: { count: number; error: GraphError } = {
    count: 0,
    error: { status: 400, message: "", type: "OAuthException", code: 1 },
  };
  private sequence = 0;
  readonly user: { id: string; name: string };
  readonly pages: NonNullable<MetaGraphOptions["pages"]>;
  processingMs: number;
  shortLivedMs: number;
  longLivedMs: number;
  /**
   * How long a publishing call (feed, photos, media_publish) takes before its post is made (ms):
   * a caller killed meanwhile leaves a post it never heard about, as with Meta.
   */
  publishDelayMs = 0;
  /** What the provider saw, for tests to assert. */
  readonly seen = {
    authorize: 0,
    codeExchanges: 0,
    longLivedExchanges: 0,
    revoked: 0,
    /** Image URLs fetched, and whether each could be read. */
    imageFetches: [] as { url: string; ok: boolean }[],
    /** Publishing calls answered with a closed socket. */
    crashed: 0,
    refused: 0,
    /** Every request's method and path, in order. */
    requests: [] as string[],
  };

  constructor(private readonly options: MetaGraphOptions) {
    this.user = options.user ?? { id: "10200000000001", name: "Bikes Owner" };
    this.pages = options.pages ?? DEFAULT_PAGES;
    this.processingMs = options.processingMs ?? 300;
    this.shortLivedMs = options.shortLivedMs ?? 5_400_000;
    this.longLivedMs = options.longLivedMs ?? 5_183_944_000;
  }

  /** Listens on 127.0.0.1:`port` (0: any). @returns the port. */
  async start(port = 0): Promise<number> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: Error) => {
        if (!res.headersSent) graphError(res, { status: 500, message: error.message, type: "OAuthException", code: 2 });
      });
    });
    this.server.listen(port, "127.0.0.1");
    await once(this.server, "listening");
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** Authorizations answer `error=access_denied` until `deny(false)`. */
  deny(on = true): void {
    this.denying = on;
  }

  /** The next `count` publishing calls make their post, then close the socket without an answer. */
  crashAfterAccept(count = 1): void {
    this.crashes = count;
  }

  /** The next `count` publishing calls answer `error` and make nothing. */
  refuseNext(count: number, error: GraphError): void {
    this.refusals = { count, error };
  }

  /** Live posts on a channel (a Page id or an Instagram user id). */
  published(channel: string): FakePost[] {
    return this.posts.filter((post) => post.channel === channel && post.published);
  }

  /** Every post made, on every channel. */
  allPosts(): readonly FakePost[] {
    return this.posts;
  }

  /** Forgets posts, containers and counters (between runs of a test). */
  reset(): void {
    this.posts.length = 0;
    this.containers.clear();
    this.crashes = 0;
    this.refusals.count = 0;
    this.seen.imageFetches.length = 0;
    this.seen.requests.length = 0;
    this.seen.crashed = 0;
    this.seen.refused = 0;
  }

  /** Issues a user access token directly (tests that skip the login dialog). */
  issueUserToken(longLived = true): string {
    return this.userToken(longLived);
  }

  /** A user token with its lifetime (short-lived from a code, long-lived from an exchange). */
  private userToken(longLived: boolean): string {
    const lifetime = longLived ? this.longLivedMs : this.shortLivedMs;
    return this.issue({ kind: "user", longLived, revoked: false, expiresAt: Date.now() + lifetime });
  }

  /** A Page token had through a user token: it lasts as long as a short-lived one, forever after a long-lived one. */
  private pageToken(grant: TokenGrant, pageId: string): string {
    const expiresAt = grant.longLived ? Number.POSITIVE_INFINITY : grant.expiresAt;
    return this.issue({ kind: "page", pageId, longLived: grant.longLived, revoked: false, expiresAt });
  }

  private next(): string {
    this.sequence += 1;
    return `${Date.now()}${String(this.sequence).padStart(4, "0")}`;
  }

  private issue(grant: TokenGrant): string {
    const value = `EAA${randomBytes(24).toString("base64url")}`;
    this.tokens.set(value, grant);
    return value;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://local");
    const path = url.pathname.replace(/^\/v\d+\.\d+(?=\/)/, "").replace(/\/$/, "") || "/";
    const method = req.method ?? "GET";
    this.seen.requests.push(`${method} ${path}`);
    const params = { ...Object.fromEntries(url.searchParams), ...(await bodyOf(req)) };
    if (method === "GET" && path === "/dialog/oauth") return this.dialog(params, res);
    if (path === "/oauth/access_token" && (method === "GET" || method === "POST")) return this.exchange(params, res);

    const token = params.access_token ?? /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const grant = this.tokens.get(token);
    if (grant && !grant.revoked && grant.expiresAt <= Date.now()) return expired(res, grant);
    if (!grant || grant.revoked)
      return graphError(res, {
        status: 400,
        message: token
          ? "Invalid OAuth access token - Cannot parse access token"
          : "An active access token must be used to query information about the current user.",
        type: "OAuthException",
        code: 190,
      });

    const parts = path.split("/").filter(Boolean);
    if (parts[0] === "me") {
      if (parts.length === 1 && method === "GET") return this.me(grant, params, res);
      if (parts[1] === "permissions" && method === "DELETE") return this.revoke(grant, res);
      if (parts[1] === "accounts" && method === "GET") return this.accounts(grant, params, res);
    }
    const [node, edge] = parts;
    if (!node) return unsupported(res, method, path);
    const page = this.pages.find((p) => p.id === node);
    const igPage = this.pages.find((p) => p.instagram?.id === node);
    if (page) {
      if (!edge && method === "GET") return this.pageNode(grant, page, params, res);
      if ((edge === "feed" || edge === "photos") && method === "POST")
        return this.pagePost(grant, page.id, edge, params, req, res);
      if ((edge === "feed" || edge === "posts") && method === "GET") return this.pageFeed(page.id, params, res);
    }
    if (igPage?.instagram) {
      const ig = igPage.instagram;
      if (!edge && method === "GET") return json(res, 200, pick({ id: ig.id, username: ig.username }, params.fields));
      if (edge === "media" && method === "POST") return this.igContainer(grant, ig.id, params, res);
      if (edge === "media_publish" && method === "POST") return this.igPublish(ig.id, params, req, res);
      if (edge === "media" && method === "GET") return this.igMedia(ig.id, params, res);
    }
    const container = this.containers.get(node);
    if (container && !edge && method === "GET") return this.containerNode(container, params, res);
    const post = this.posts.find((p) => p.id === node || p.id.endsWith(`_${node}`));
    if (post && !edge && method === "GET")
      return json(
        res,
        200,
        pick(
          {
            id: post.id,
            message: post.message,
            caption: post.message,
            permalink: post.permalink,
            permalink_url: post.permalink,
            timestamp: iso(post.createdAt),
          },
          params.fields,
        ),
      );
    return unsupported(res, method, path);
  }

  private dialog(params: Record<string, string>, res: ServerResponse) {
    this.seen.authorize += 1;
    const redirectUri = params.redirect_uri ?? "";
    if (params.client_id !== this.options.clientId || !/^https?:\/\//.test(redirectUri)) {
      return graphError(res, {
        status: 400,
        message: "Invalid App ID or redirect_uri",
        type: "OAuthException",
        code: 191,
      });
    }
    const back = new URL(redirectUri);
    if (params.state !== undefined) back.searchParams.set("state", params.state);
    if (this.denying) {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_reason", "user_denied");
      back.searchParams.set("error_description", "Permissions error");
    } else {
      const code = `AQ${randomBytes(24).toString("base64url")}`;
      this.codes.set(code, { redirectUri, scope: params.scope ?? "", used: false });
      back.searchParams.set("code", code);
    }
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private exchange(params: Record<string, string>, res: ServerResponse) {
    if (params.client_id !== this.options.clientId || params.client_secret !== this.options.clientSecret) {
      return graphError(res, {
        status: 400,
        message: "Error validating client secret.",
        type: "OAuthException",
        code: 1,
      });
    }
    if (params.grant_type === "fb_exchange_token") {
      this.seen.longLivedExchanges += 1;
      const grant = this.tokens.get(params.fb_exchange_token ?? "");
      // An expired token cannot be exchanged (Meta's "Get Long-Lived" guide).
      if (grant && !grant.revoked && grant.expiresAt <= Date.now()) return expired(res, grant);
      if (!grant || grant.revoked || grant.kind !== "user")
        return graphError(res, {
          status: 400,
          message: "Invalid OAuth access token - Cannot parse access token",
          type: "OAuthException",
          code: 190,
        });
      const access = this.userToken(true);
      return json(res, 200, {
        access_token: access,
        token_type: "bearer",
        expires_in: Math.ceil(this.longLivedMs / 1000),
      });
    }
    this.seen.codeExchanges += 1;
    const entry = this.codes.get(params.code ?? "");
    if (!entry || entry.used)
      return graphError(res, {
        status: 400,
        message: entry ? "This authorization code has been used." : "Invalid verification code format.",
        type: "OAuthException",
        code: 100,
        error_subcode: entry ? 36009 : 36008,
      });
    if (entry.redirectUri !== params.redirect_uri)
      return graphError(res, {
        status: 400,
        message:
          "Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request",
        type: "OAuthException",
        code: 100,
        error_subcode: 36008,
      });
    entry.used = true;
    const access = this.userToken(false);
    // A short-lived user token lives one to two hours.
    json(res, 200, { access_token: access, token_type: "bearer", expires_in: Math.ceil(this.shortLivedMs / 1000) });
  }

  private me(grant: TokenGrant, params: Record<string, string>, res: ServerResponse) {
    if (grant.kind === "page") {
      const page = this.pages.find((p) => p.id === grant.pageId);
      return json(res, 200, pick({ id: page?.id, name: page?.name }, params.fields));
    }
    json(res, 200, pick({ id: this.user.id, name: this.user.name }, params.fields));
  }

  private revoke(grant: TokenGrant, res: ServerResponse) {
    if (grant.kind !== "user")
      return graphError(res, {
        status: 400,
        message: "(#100) Tried accessing nonexisting field (permissions) on node type (Page)",
        type: "OAuthException",
        code: 100,
      });
    // Removing the app's permissions ends every token of this user, Page tokens included.
    for (const other of this.tokens.values()) other.revoked = true;
    this.seen.revoked += 1;
    json(res, 200, { success: true });
  }

  private accounts(grant: TokenGrant, params: Record<string, string>, res: ServerResponse) {
    if (grant.kind !== "user")
      return graphError(res, {
        status: 400,
        message: "(#100) Tried accessing nonexisting field (accounts) on node type (Page)",
        type: "OAuthException",
        code: 100,
      });
    const limit = clamp(Number(params.limit) || this.options.pageSize || 25, 1, 100);
    const start = params.after ? cursorIndex(params.after) + 1 : 0;
    const slice = this.pages.slice(start, start + limit);
    const data = slice.map((page) => ({
      access_token: this.pageToken(grant, page.id),
      category: "Bicycle Shop",
      category_list: [{ id: "2205", name: "Bicycle Shop" }],
      name: page.name,
      id: page.id,
      tasks: ["ADVERTISE", "ANALYZE", "CREATE_CONTENT", "MESSAGING", "MODERATE", "MANAGE"],
    }));
    json(res, 200, {
      data,
      paging: paging(start, slice.length, start + limit < this.pages.length, "/me/accounts", limit),
    });
  }

  private pageNode(
    grant: TokenGrant,
    page: (typeof this.pages)[number],
    params: Record<string, string>,
    res: ServerResponse,
  ) {
    const fields = new Set((params.fields ?? "id,name").split(",").map((f) => f.trim()));
    const out: Record<string, unknown> = { id: page.id };
    if (fields.has("name")) out.name = page.name;
    if (fields.has("instagram_business_account") && page.instagram)
      out.instagram_business_account = { id: page.instagram.id };
    if (fields.has("access_token") && grant.kind === "user") out.access_token = this.pageToken(grant, page.id);
    json(res, 200, out);
  }

  /** Whether this call is refused by `refuseNext`; answers the refusal. */
  private refused(res: ServerResponse): boolean {
    if (this.refusals.count <= 0) return false;
    this.refusals.count -= 1;
    this.seen.refused += 1;
    graphError(res, this.refusals.error);
    return true;
  }

  /** After a post is made: answer it, or close the socket when a crash is asked for. */
  private accepted(req: IncomingMessage, res: ServerResponse, body: unknown) {
    if (this.crashes > 0) {
      this.crashes -= 1;
      this.seen.crashed += 1;
      req.socket.destroy();
      return;
    }
    json(res, 200, body);
  }

  private async pagePost(
    grant: TokenGrant,
    pageId: string,
    edge: "feed" | "photos",
    params: Record<string, string>,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    if (grant.kind !== "page" || grant.pageId !== pageId)
      return graphError(res, {
        status: 403,
        message:
          "(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts as an admin with sufficient administrative permission",
        type: "OAuthException",
        code: 200,
      });
    if (this.refused(res)) return;
    if (this.publishDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.publishDelayMs));
    const message = params.message ?? params.caption ?? "";
    const published = params.published !== "false";
    if (edge === "feed") {
      if (!message && !params.link)
        return graphError(res, {
          status: 400,
          message: "(#100) Missing message or attachment",
          type: "OAuthException",
          code: 100,
        });
      const post = this.post(pageId, "page_feed", message, "", published);
      return this.accepted(req, res, { id: post.id });
    }
    if (!params.url)
      return graphError(res, {
        status: 400,
        message: "(#324) Requires upload file",
        type: "OAuthException",
        code: 324,
      });
    if (!(await this.fetchImage(params.url, false)))
      return graphError(res, {
        status: 400,
        message: "(#324) Missing or invalid image file",
        type: "OAuthException",
        code: 324,
      });
    const post = this.post(pageId, "page_photo", message, params.url, published);
    const photoId = post.id.split("_")[1];
    this.accepted(req, res, { id: photoId, post_id: post.id });
  }

  private post(
    channel: string,
    kind: FakePost["kind"],
    message: string,
    imageUrl: string,
    published: boolean,
  ): FakePost {
    const local = this.next();
    const id = kind === "instagram" ? local : `${channel}_${local}`;
    const permalink =
      kind === "instagram"
        ? `https://www.instagram.com/p/${Buffer.from(local).toString("base64url").slice(0, 11)}/`
        : `https://www.facebook.com/${channel}/posts/${local}`;
    const post: FakePost = { id, channel, kind, message, imageUrl, published, createdAt: new Date(), permalink };
    this.posts.push(post);
    return post;
  }

  private pageFeed(pageId: string, params: Record<string, string>, res: ServerResponse) {
    const since = params.since ? sinceOf(params.since) : 0;
    const posts = this.posts
      .filter((p) => p.channel === pageId && p.published && p.createdAt.getTime() >= since)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    const fields = params.fields ?? "id,message,created_time";
    this.list(res, posts, params, `/${pageId}/feed`, (p) =>
      pick(
        { id: p.id, message: p.message || undefined, created_time: fbTime(p.createdAt), permalink_url: p.permalink },
        fields,
      ),
    );
  }

  private async igContainer(
    grant: TokenGrant,
    igUserId: string,
    params: Record<string, string>,
    res: ServerResponse,
  ): Promise<void> {
    if (grant.kind !== "user")
      return graphError(res, {
        status: 400,
        message: "(#10) Application does not have permission for this action",
        type: "OAuthException",
        code: 10,
      });
    if (!params.image_url)
      return graphError(res, {
        status: 400,
        message: "(#100) The parameter image_url is required",
        type: "OAuthException",
        code: 100,
      });
    if (this.refused(res)) return;
    if (!(await this.fetchImage(params.image_url, true)))
      return graphError(res, {
        status: 400,
        message: "Only photo or video can be accepted as media type.",
        type: "OAuthException",
        code: 9004,
        error_subcode: 2207052,
      });
    const id = this.next();
    this.containers.set(id, {
      id,
      igUserId,
      imageUrl: params.image_url,
      caption: params.caption ?? "",
      readyAt: Date.now() + this.processingMs,
      state: "IN_PROGRESS",
    });
    json(res, 200, { id });
  }

  private containerNode(container: Container, params: Record<string, string>, res: ServerResponse) {
    if (container.state === "IN_PROGRESS" && Date.now() >= container.readyAt) container.state = "FINISHED";
    json(
      res,
      200,
      pick(
        {
          id: container.id,
          status_code: container.state,
          status:
            container.state === "FINISHED"
              ? "Finished: Media has been uploaded and it is ready to be published."
              : container.state,
        },
        params.fields ?? "id",
      ),
    );
  }

  private async igPublish(igUserId: string, params: Record<string, string>, req: IncomingMessage, res: ServerResponse) {
    const container = this.containers.get(params.creation_id ?? "");
    if (!container || container.igUserId !== igUserId)
      return graphError(res, {
        status: 400,
        message: "(#100) Param creation_id must be a valid media container id",
        type: "OAuthException",
        code: 100,
      });
    if (container.state === "IN_PROGRESS" && Date.now() >= container.readyAt) container.state = "FINISHED";
    if (container.state === "IN_PROGRESS")
      return graphError(res, {
        status: 400,
        message: "The media is not ready for publishing, please wait for a moment",
        type: "OAuthException",
        code: 9007,
        error_subcode: 2207027,
      });
    if (container.state === "PUBLISHED")
      return graphError(res, {
        status: 400,
        message: "Media ID is not available",
        type: "OAuthException",
        code: 9007,
        error_subcode: 2207006,
      });
    if (this.refused(res)) return;
    // A container publishes once, however many calls race for it.
    container.state = "PUBLISHED";
    if (this.publishDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.publishDelayMs));
    const post = this.post(igUserId, "instagram", container.caption, container.imageUrl, true);
    container.mediaId = post.id;
    this.accepted(req, res, { id: post.id });
  }

  private igMedia(igUserId: string, params: Record<string, string>, res: ServerResponse) {
    const posts = this.posts
      .filter((p) => p.channel === igUserId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    const fields = params.fields ?? "id";
    this.list(res, posts, params, `/${igUserId}/media`, (p) =>
      pick(
        { id: p.id, caption: p.message, permalink: p.permalink, timestamp: iso(p.createdAt), media_type: "IMAGE" },
        fields,
      ),
    );
  }

  private list(
    res: ServerResponse,
    posts: FakePost[],
    params: Record<string, string>,
    path: string,
    shape: (post: FakePost) => Record<string, unknown>,
  ) {
    const limit = clamp(Number(params.limit) || 25, 1, 100);
    const start = params.after ? cursorIndex(params.after) + 1 : 0;
    const slice = posts.slice(start, start + limit);
    json(res, 200, {
      data: slice.map(shape),
      paging: paging(start, slice.length, start + limit < posts.length, path, limit),
    });
  }

  /** Fetches an image as Meta does: a 200 answer whose type is an image (JPEG only for Instagram). */
  private async fetchImage(url: string, jpegOnly: boolean): Promise<boolean> {
    let ok = false;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: "follow" });
      const type = response.headers.get("content-type") ?? "";
      const bytes = new Uint8Array(await response.arrayBuffer());
      ok =
        response.status === 200 &&
        bytes.length > 0 &&
        (jpegOnly ? /^image\/jpe?g/.test(type) : type.startsWith("image/"));
    } catch {
      ok = false;
    }
    this.seen.imageFetches.push({ url, ok });
    return ok;
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=UTF-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

function graphError(res: ServerResponse, error: GraphError): void {
  const { status, ...rest } = error;
  json(res, status, { error: { ...rest, fbtrace_id: randomBytes(8).toString("base64url") } });
}

/** Graph's answer to an expired token (code 190, subcode 463). */
function expired(res: ServerResponse, grant: TokenGrant): void {
  graphError(res, {
    status: 400,
    message: `Error validating access token: Session has expired on ${new Date(grant.expiresAt).toUTCString()}. The current time is ${new Date().toUTCString()}.`,
    type: "OAuthException",
    code: 190,
    error_subcode: 463,
  });
}

function unsupported(res: ServerResponse, method: string, path: string): void {
  graphError(res, {
    status: 400,
    message: `Unsupported ${method.toLowerCase()} request. Object with ID '${path.split("/")[1] ?? ""}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    type: "GraphMethodException",
    code: 100,
    error_subcode: 33,
  });
}

/** Only the asked fields (Graph answers `id` plus what `fields` names), dropping undefined ones. */
function pick(node: Record<string, unknown>, fields: string | undefined): Record<string, unknown> {
  const wanted = new Set([
    "id",
    ...(fields ?? "")
      .split(",")
      .map((f) => f.trim())
      .filter(Boolean),
  ]);
  return Object.fromEntries(Object.entries(node).filter(([key, value]) => wanted.has(key) && value !== undefined));
}

const cursorOf = (index: number) => Buffer.from(`i:${index}`).toString("base64url");

function cursorIndex(cursor: string): number {
  const match = /^i:(\d+)$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return match ? Number(match[1]) : Number.MAX_SAFE_INTEGER;
}

/** Graph's cursor paging: `cursors.before/after`, and `next` only when more follow. */
function paging(start: number, count: number, more: boolean, path: string, limit: number) {
  if (count === 0) return { cursors: {} };
  const after = cursorOf(start + count - 1);
  return {
    cursors: { before: cursorOf(start), after },
    ...(more ? { next: `https://graph.facebook.com/v21.0${path}?limit=${limit}&after=${after}` } : {}),
  };
}

/** `since` as Graph reads it: a Unix timestamp in seconds, or a date strtotime() reads. */
function sinceOf(value: string): number {
  return /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) || 0;
}

const iso = (at: Date) => `${at.toISOString().slice(0, 19)}+0000`;
const fbTime = iso;
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, Math.floor(value)));

async function bodyOf(req: IncomingMessage): Promise<Record<string, string>> {
  let text = "";
  for await (const chunk of req) text += chunk;
  if (!text) return {};
  if ((req.headers["content-type"] ?? "").includes("application/json")) {
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, String(value)]));
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}
