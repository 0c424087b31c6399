import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OutboundError, providerHttp } from "@crafter/kit";
import { chunkProblem, LocalTikTokServer } from "@crafter/provider-fakes";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import {
  chunkPlan,
  clip,
  failureOf,
  outcomeOfStatus,
  postKind,
  rangeReader,
  sameText,
  TikTokApiError,
  tiktokAdapter,
} from "../src/clients/social/tiktok";
import type { Channel, PostContent, PostMedium, PublishOutcome } from "../src/domain/social-channels";

const MB = 1024 * 1024;
const pins = { "127.0.0.1": "127.0.0.1" };

describe("a video's chunks", () => {
  it("follow TikTok's media transfer rules at every size, the last chunk ending on the last byte", () => {
    for (const size of [1, 4 * MB, 5 * MB, 30 * MB, 64 * MB, 64 * MB + 1, 100 * MB + 7, 2048 * MB]) {
      const plan = chunkPlan(size);
      expect(chunkProblem(size, plan.chunkSize, plan.totalChunkCount)).toBeNull();
      expect(plan.ranges).toHaveLength(plan.totalChunkCount);
      expect(plan.ranges[0]?.[0]).toBe(0);
      expect(plan.ranges.at(-1)?.[1]).toBe(size - 1);
      for (let i = 1; i < plan.ranges.length; i++) expect(plan.ranges[i]?.[0]).toBe((plan.ranges[i - 1]?.[1] ?? 0) + 1);
    }
  });

  it("are refused by the local TikTok when they break the rules", () => {
    expect(chunkProblem(4 * MB, 1 * MB, 4)).toMatch(/whole/);
    expect(chunkProblem(200 * MB, 10 * MB, 21)).toMatch(/rounded down/);
    expect(chunkProblem(200 * MB, 100 * MB, 2)).toMatch(/5 to 64 MB/);
  });
});

describe("the adapter's pure parts", () => {
  const image = (mimeType = "image/jpeg"): PostMedium => ({ kind: "image", url: "https://m/x", mimeType, bytes: 10 });
  const video: PostMedium = { kind: "video", url: "https://m/v", mimeType: "video/mp4", bytes: 10 };

  it("tells photo posts from video posts, and refuses what TikTok would", () => {
    expect(postKind([image(), image("image/webp")])).toEqual({ kind: "photo" });
    expect(postKind([video])).toEqual({ kind: "video" });
    expect(postKind([])).toHaveProperty("problem");
    expect(postKind([video, image()])).toHaveProperty("problem");
    expect(postKind([image("image/png")])).toEqual({ problem: "TikTok takes JPEG or WebP photos only." });
    expect(postKind(Array.from({ length: 36 }, () => image()))).toHaveProperty("problem");
  });

  it("clips titles by characters, not UTF-16 units", () => {
    expect(clip("Short", 90)).toBe("Short");
    const long = "🚲".repeat(100);
    expect([...clip(long, 90)]).toHaveLength(90);
    expect(clip("\n  First line\nSecond", 90, true)).toBe("First line");
  });

  it("finds a post whose listed description TikTok cut short, not a different one", () => {
    const text = "Spring tune-up week: bring your bike in for a full check, 20% off parts until Sunday. #bikes";
    expect(sameText(text.slice(0, 60), text)).toBe(true);
    expect(sameText(`  ${text.toUpperCase()}  `, text)).toBe(true);
    expect(sameText("Spring", text)).toBe(false);
    expect(sameText("Autumn tune-up week: bring your bike in", text)).toBe(false);
    expect(sameText("", text)).toBe(false);
  });

  it("reads refusals and statuses as outcomes, retryable only where a later attempt may work", () => {
    expect(failureOf(new TikTokApiError(429, "rate_limit_exceeded", "slow"))).toMatchObject({ retryable: true });
    expect(failureOf(new TikTokApiError(403, "spam_risk_too_many_posts", "cap"))).toMatchObject({
      retryable: true,
      retryAfterMs: 3_600_000,
    });
    expect(failureOf(new TikTokApiError(401, "access_token_invalid", "x"))).toMatchObject({
      retryable: false,
      reason: expect.stringMatching(/reconnect TikTok/),
    });
    expect(failureOf(new TikTokApiError(400, "invalid_params", "title too long"))).toMatchObject({
      retryable: false,
      reason: expect.stringContaining("title too long"),
    });
    expect(outcomeOfStatus("p1", { status: "PROCESSING_DOWNLOAD" }, null)).toEqual({
      state: "processing",
      remoteRef: "p1",
    });
    expect(outcomeOfStatus("p1", { status: "PUBLISH_COMPLETE" }, null)).toEqual({
      state: "published",
      remotePostId: "p1",
    });
    expect(outcomeOfStatus("p1", { status: "FAILED", fail_reason: "duration_check_failed" }, null)).toMatchObject({
      state: "failed",
      retryable: false,
    });
    expect(outcomeOfStatus("p1", { status: "PROCESSING_UPLOAD" }, null)).toMatchObject({
      state: "failed",
      retryable: true,
    });
  });
});

describe("publishing through the local TikTok", () => {
  const tiktok = new LocalTikTokServer({ clientKey: "ck", clientSecret: "cs", processingMs: 100 });
  let media: Server;
  let mediaOrigin = "";
  const videoBytes = Buffer.alloc(300_000, 7);
  let tiktokOrigin = "";
  const reads = providerHttp({ timeoutMs: 5000, pins, sleep: async () => {} });
  const writes = providerHttp({ timeoutMs: 5000, pins, attempts: 1 });
  let adapter: ReturnType<typeof tiktokAdapter>;
  let token = "";
  let channel: Channel;

  beforeAll(async () => {
    tiktokOrigin = `http://127.0.0.1:${await tiktok.start()}`;
    media = createServer((req, res) => {
      if (req.url === "/photo.jpg") {
        res.writeHead(200, { "content-type": "image/jpeg" });
        return void res.end(Buffer.alloc(2000, 1));
      }
      if (req.url === "/video.mp4") {
        const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
        const start = Number(range?.[1] ?? 0);
        const end = Number(range?.[2] ?? videoBytes.length - 1);
        res.writeHead(range ? 206 : 200, {
          "content-type": "video/mp4",
          ...(range ? { "content-range": `bytes ${start}-${end}/${videoBytes.length}` } : {}),
        });
        return void res.end(videoBytes.subarray(start, end + 1));
      }
      res.writeHead(404);
      res.end();
    });
    media.listen(0, "127.0.0.1");
    await once(media, "listening");
    mediaOrigin = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
    adapter = tiktokAdapter({
      reads,
      writes,
      baseUrl: tiktokOrigin,
      readRange: rangeReader({ pins, timeoutMs: 5000 }),
      polls: 0,
    });
  });

  afterAll(async () => {
    await tiktok.stop();
    media.closeAllConnections();
    await new Promise((resolve) => media.close(resolve));
  });

  beforeEach(async () => {
    token = tiktok.issueToken();
    [channel] = (await adapter.listChannels(token)) as [Channel];
  });

  const photo = (text: string, privacyLevel = "PUBLIC_TO_EVERYONE"): PostContent => ({
    text,
    media: [{ kind: "image", url: `${mediaOrigin}/photo.jpg`, mimeType: "image/jpeg", bytes: 2000 }],
    tiktok: { privacyLevel },
  });

  /** Polls `status` until the post is no longer processing. */
  async function settle(ref: string): Promise<PublishOutcome> {
    for (let i = 0; i < 50; i++) {
      const outcome = await adapter.status(token, channel, ref);
      if (outcome.state !== "processing") return outcome;
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    throw new Error("still processing");
  }

  it("lists the connected creator as the one channel", async () => {
    expect(channel).toEqual({
      kind: "tiktok",
      remoteId: tiktok.creator.openId,
      name: "Bikes Shop (@bikes.shop)",
      pictureUrl: tiktok.creator.avatarUrl,
    });
    const info = await adapter.creatorInfo(token);
    expect(info.privacyLevelOptions).toEqual(tiktok.creator.privacyLevelOptions);
    expect(info.stitchDisabled).toBe(true);
  });

  it("publishes a photo post: the publish id recorded before anything else, then its link once live", async () => {
    const before = tiktok.postsOf().length;
    const refs: string[] = [];
    const text = `Photo post ${Date.now()}\nNew bells are in: ring ring, come and try them.`;
    const outcome = await adapter.publish(token, channel, photo(text), async (ref) => {
      expect(ref).toMatch(/^publish:p_pub_url~v2-1\.\d+$/);
      refs.push(ref);
    });
    expect(outcome).toEqual({ state: "processing", remoteRef: refs[0] });
    expect(refs).toHaveLength(1);
    const body = tiktok.seen.initBodies.at(-1) as Record<string, Record<string, unknown>>;
    expect(body.post_info).toMatchObject({
      privacy_level: "PUBLIC_TO_EVERYONE",
      title: `Photo post ${text.slice(11, 24)}`,
    });
    expect(body.source_info).toMatchObject({ source: "PULL_FROM_URL", photo_images: [`${mediaOrigin}/photo.jpg`] });

    const done = await settle(refs[0] ?? "");
    const post = tiktok.postsOf().at(-1);
    expect(done).toEqual({
      state: "published",
      remotePostId: post?.postId,
      permalink: `https://www.tiktok.com/@bikes.shop/photo/${post?.postId}`,
    });
    // 19 digits, unrounded although TikTok sends the id as a JSON number.
    expect(post?.postId).toMatch(/^\d{19}$/);
    expect(tiktok.postsOf().length).toBe(before + 1);
  });

  it("waits for a post it just made to be published when TikTok is quick, and answers its link", async () => {
    const polling = tiktokAdapter({ reads, writes, baseUrl: tiktokOrigin, pollMs: 60, polls: 20 });
    const outcome = await polling.publish(token, channel, photo(`Quick ${Date.now()}`), async () => {});
    const post = tiktok.postsOf().at(-1);
    expect(outcome).toEqual({
      state: "published",
      remotePostId: post?.postId,
      permalink: `https://www.tiktok.com/@bikes.shop/photo/${post?.postId}`,
    });
  });

  it("publishes a video from the media library in chunks to the upload URL", async () => {
    const refs: string[] = [];
    const chunksBefore = tiktok.seen.chunks;
    const outcome = await adapter.publish(
      token,
      channel,
      {
        text: `Video ${Date.now()}`,
        media: [{ kind: "video", url: `${mediaOrigin}/video.mp4`, mimeType: "video/mp4", bytes: videoBytes.length }],
        tiktok: { privacyLevel: "SELF_ONLY", disableComment: true },
      },
      async (ref) => void refs.push(ref),
    );
    expect(outcome).toEqual({ state: "processing", remoteRef: refs[0] });
    expect(tiktok.seen.chunks - chunksBefore).toBe(1);
    const post = tiktok.allPosts().find((p) => `publish:${p.publishId}` === refs[0]);
    expect(post?.uploadedBytes).toBe(videoBytes.length);
    expect(post?.postInfo).toMatchObject({ disable_comment: true, disable_stitch: true, privacy_level: "SELF_ONLY" });
    // A private post has no public id: the publish id stands for it.
    expect(await settle(refs[0] ?? "")).toEqual({ state: "published", remotePostId: post?.publishId });
  });

  it("refuses before sending anything when no privacy level was chosen or the creator does not offer it", async () => {
    const inits = tiktok.seen.inits;
    const none = await adapter.publish(token, channel, { ...photo("No choice"), tiktok: undefined }, async () => {});
    expect(none).toMatchObject({
      state: "failed",
      retryable: false,
      reason: expect.stringMatching(/Choose who can see/),
    });
    const wrong = await adapter.publish(token, channel, photo("Followers", "FOLLOWER_OF_CREATOR"), async () => {});
    expect(wrong).toMatchObject({ state: "failed", retryable: false });
    const png = await adapter.publish(
      token,
      channel,
      { ...photo("PNG"), media: [{ kind: "image", url: `${mediaOrigin}/p.png`, mimeType: "image/png", bytes: 1 }] },
      async () => {},
    );
    expect(png).toMatchObject({ state: "failed", retryable: false });
    expect(tiktok.seen.inits).toBe(inits);
  });

  it("reports TikTok's refusals: the daily cap retryable later, a revoked grant not", async () => {
    tiktok.failNext(1, 403, "spam_risk_too_many_posts", "The daily post cap from the API is reached.");
    const capped = await adapter.publish(token, channel, photo("Capped"), async () => {});
    expect(capped).toMatchObject({ state: "failed", retryable: true, retryAfterMs: 3_600_000 });
    tiktok.failNext(3, 429);
    const throttled = await adapter.publish(token, channel, photo("Throttled"), async () => {});
    expect(throttled).toMatchObject({ state: "failed", retryable: true });
    const revoked = tiktok.issueToken();
    tiktok.revokeAll();
    const refused = await adapter.publish(revoked, channel, photo("Revoked"), async () => {});
    expect(refused).toMatchObject({ state: "failed", retryable: false, reason: expect.stringMatching(/reconnect/) });
  });

  it("retries reads after a 5xx, but reads a 5xx to an init as an unknown outcome, never sent twice", async () => {
    const inits = tiktok.seen.inits;
    tiktok.failNext(1, 500, "internal_error", "Something broke.", "/v2/post/publish/creator_info/query/");
    tiktok.failNext(1, 500, "internal_error", "Something broke.", "/v2/post/publish/content/init/");
    const errors = tiktok.seen.errors.length;
    await expect(adapter.publish(token, channel, photo("Unknown"), async () => {})).rejects.toBeInstanceOf(
      OutboundError,
    );
    expect(tiktok.seen.errors.slice(errors)).toEqual(["internal_error", "internal_error"]);
    expect(tiktok.seen.inits).toBe(inits);
  });

  it("reads a post TikTok failed with its reason", async () => {
    tiktok.failNextPublish("picture_size_check_failed");
    let ref = "";
    await adapter.publish(token, channel, photo(`Too big ${Date.now()}`), async (r) => {
      ref = r;
    });
    expect(await settle(ref)).toEqual({
      state: "failed",
      reason: "TikTok refused the size of a photo or of the video.",
      retryable: false,
    });
  });

  it("after a crash once TikTok accepted, finds the post among the creator's posts instead of posting again", async () => {
    const text = `Crash ${Date.now()}: our workshop opens late on Thursdays from next week on, see you there.`;
    const before = tiktok.postsOf().length;
    tiktok.crashAfterAccept(1);
    const refs: string[] = [];
    await expect(adapter.publish(token, channel, photo(text), async (r) => void refs.push(r))).rejects.toBeInstanceOf(
      OutboundError,
    );
    expect(refs).toEqual([]);
    expect(tiktok.postsOf().length).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const found = await adapter.findRecent(token, channel, photo(text), new Date(Date.now() - 60_000));
    const post = tiktok.postsOf().at(-1);
    expect(found).toEqual({
      remotePostId: post?.postId,
      permalink: `https://www.tiktok.com/@bikes.shop/photo/${post?.postId}`,
    });
    expect(await adapter.findRecent(token, channel, photo(`Never posted ${text}`), new Date(0))).toBeNull();
  });

  it("treats an upload cut short as failed, retryable, with nothing published", async () => {
    const broken = tiktokAdapter({
      reads,
      writes,
      baseUrl: tiktokOrigin,
      readRange: async () => {
        throw new Error("connection reset");
      },
      polls: 0,
    });
    let ref = "";
    const outcome = await broken.publish(
      token,
      channel,
      {
        text: `Cut ${Date.now()}`,
        media: [{ kind: "video", url: `${mediaOrigin}/video.mp4`, mimeType: "video/mp4", bytes: videoBytes.length }],
        tiktok: { privacyLevel: "PUBLIC_TO_EVERYONE" },
      },
      async (r) => {
        ref = r;
      },
    );
    expect(ref).not.toBe("");
    expect(outcome).toMatchObject({ state: "failed", retryable: true });
    expect(await adapter.status(token, channel, ref)).toMatchObject({ state: "failed", retryable: true });
    expect(await adapter.status(token, channel, "v_pub~v2-1.1")).toMatchObject({ state: "failed" });
  });
});
