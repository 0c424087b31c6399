import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OutboundError, providerHttp } from "@crafter/kit";
import { LocalMetaGraph } from "@crafter/provider-fakes";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@jest/globals";
import { metaAdapter } from "../src/clients/social/meta";
import { socialAdapters } from "../src/clients/social/registry";
import type { Channel, PostContent } from "../src/domain/social-channels";

// The Meta adapter against the local Graph API: channels from /me/accounts and the Pages'
// Instagram accounts, a Page photo post and an Instagram container published, the refs recorded
// before anything else, refusals passed on with their reason, and a post the caller never heard
// about found again among the channel's recent posts.

const graph = new LocalMetaGraph({ clientId: "app-1", clientSecret: "secret-1", processingMs: 50, pageSize: 1 });
let images: Server;
let imageBase: string;
let adapter: ReturnType<typeof metaAdapter>;
let token: string;
let graphPort: number;

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 0xff, 0xd9]);
const page: Channel = { kind: "facebook_page", remoteId: "101000000000001", name: "Town Bikes" };
const instagram: Channel = { kind: "instagram", remoteId: "17841400000000001", name: "@townbikes" };

const content = (text: string, path = "/photo.jpg"): PostContent => ({
  text,
  media: [{ kind: "image", url: `${imageBase}${path}`, mimeType: "image/jpeg", bytes: JPEG.length }],
});

beforeAll(async () => {
  images = createServer((req, res) => {
    if (req.url === "/photo.jpg") {
      res.writeHead(200, { "content-type": "image/jpeg" });
      return void res.end(JPEG);
    }
    res.writeHead(404);
    res.end();
  });
  images.listen(0, "127.0.0.1");
  await once(images, "listening");
  imageBase = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
  graphPort = await graph.start(0);
  const port = graphPort;
  const pins = { "graph.crafter.test": "127.0.0.1" };
  const reads = providerHttp({ timeoutMs: 5000, pins, backoffMs: 10 });
  const writes = providerHttp({ timeoutMs: 5000, pins, attempts: 1 });
  adapter = metaAdapter({ reads, writes, baseUrl: `http://graph.crafter.test:${port}`, pollMs: 20 });
  token = graph.issueUserToken();
});

afterAll(async () => {
  await graph.stop();
  images.close();
});

beforeEach(() => graph.reset());

describe("the Meta adapter", () => {
  it("is the registry's adapter for meta", () => {
    const registry = socialAdapters({
      reads: providerHttp({ timeoutMs: 1, pins: {} }),
      writes: providerHttp({ timeoutMs: 1, pins: {} }),
      baseUrls: {},
    });
    expect(registry.get("meta")?.kinds).toEqual(["facebook_page", "instagram"]);
  });

  it("lists every Page across cursor pages, and the Instagram accounts linked to them", async () => {
    const channels = await adapter.listChannels(token);
    expect(channels).toEqual([
      { kind: "facebook_page", remoteId: "101000000000001", name: "Town Bikes" },
      { kind: "facebook_page", remoteId: "101000000000002", name: "Town Bikes Repairs" },
      { kind: "instagram", remoteId: "17841400000000001", name: "@townbikes" },
    ]);
  });

  it("publishes a photo on a Page with its Page token, recording the post id before asking its link", async () => {
    const refs: string[] = [];
    const outcome = await adapter.publish(token, page, content("Spring tune-ups are back"), async (ref) => {
      refs.push(ref);
      expect(graph.published(page.remoteId)).toHaveLength(1);
    });
    expect(outcome).toMatchObject({
      state: "published",
      permalink: expect.stringMatching(/^https:\/\/www\.facebook\.com\//),
    });
    expect(refs).toEqual([`post:${(outcome as { remotePostId: string }).remotePostId}`]);
    const [made] = graph.published(page.remoteId);
    expect(made).toMatchObject({
      kind: "page_photo",
      message: "Spring tune-ups are back",
      imageUrl: `${imageBase}/photo.jpg`,
    });
    expect(graph.seen.imageFetches).toEqual([{ url: `${imageBase}/photo.jpg`, ok: true }]);
  });

  it("publishes on Instagram: a container from the image URL, then media_publish once it is FINISHED", async () => {
    const refs: string[] = [];
    const outcome = await adapter.publish(token, instagram, content("New bikes in store"), async (ref) => {
      refs.push(ref);
    });
    expect(outcome).toMatchObject({
      state: "published",
      permalink: expect.stringMatching(/^https:\/\/www\.instagram\.com\/p\//),
    });
    expect(refs[0]).toMatch(/^container:\d+$/);
    expect(refs[1]).toBe(`media:${(outcome as { remotePostId: string }).remotePostId}`);
    expect(graph.published(instagram.remoteId)).toHaveLength(1);
    expect(graph.seen.requests.filter((r) => r.endsWith("/media_publish"))).toHaveLength(1);
  });

  it("passes Meta's refusal on: an image it cannot fetch makes no post and is not worth retrying", async () => {
    const outcome = await adapter.publish(token, instagram, content("Broken image", "/missing.jpg"), async () => {});
    expect(outcome).toEqual({
      state: "failed",
      reason: "Only photo or video can be accepted as media type.",
      retryable: false,
    });
    const onPage = await adapter.publish(token, page, content("Broken image", "/missing.jpg"), async () => {});
    expect(onPage).toMatchObject({ state: "failed", reason: "(#324) Missing or invalid image file", retryable: false });
    expect(graph.allPosts()).toHaveLength(0);
  });

  it("marks throttling and temporary errors retryable", async () => {
    graph.refuseNext(1, {
      status: 400,
      message: "(#368) The action attempted has been deemed abusive or is otherwise disallowed",
      type: "OAuthException",
      code: 368,
    });
    const outcome = await adapter.publish(token, page, content("Later"), async () => {});
    expect(outcome).toMatchObject({ state: "failed", retryable: true });
  });

  it("throws on a crash after Meta accepted, and findRecent then finds the post by its text", async () => {
    const since = new Date(Date.now() - 1000);
    graph.crashAfterAccept(1);
    await expect(
      adapter.publish(token, page, content("Made, but never answered"), async () => {}),
    ).rejects.toBeInstanceOf(OutboundError);
    expect(graph.published(page.remoteId)).toHaveLength(1);
    const found = await adapter.findRecent(token, page, content("Made, but never answered"), since);
    expect(found).toEqual({
      remotePostId: graph.published(page.remoteId)[0]?.id,
      permalink: graph.published(page.remoteId)[0]?.permalink,
    });
    expect(await adapter.findRecent(token, page, content("Another text"), since)).toBeNull();

    graph.crashAfterAccept(1);
    await expect(
      adapter.publish(token, instagram, content("Made on Instagram"), async () => {}),
    ).rejects.toBeInstanceOf(OutboundError);
    const onInstagram = await adapter.findRecent(token, instagram, content("Made on Instagram"), since);
    expect(onInstagram?.remotePostId).toBe(graph.published(instagram.remoteId)[0]?.id);
    expect(
      await adapter.findRecent(token, instagram, content("Made on Instagram"), new Date(Date.now() + 60_000)),
    ).toBeNull();
  });

  it("reads a ref's state: a post is published, an unpublished container is processing", async () => {
    const refs: string[] = [];
    const outcome = await adapter.publish(token, page, content("Status check"), async (ref) => {
      refs.push(ref);
    });
    expect(await adapter.status(token, page, refs[0]!)).toMatchObject({
      state: "published",
      remotePostId: (outcome as { remotePostId: string }).remotePostId,
    });
  });

  it("refuses a revoked token with Graph's error 190", async () => {
    const other = graph.issueUserToken();
    const answer = await fetch(`http://127.0.0.1:${graphPort}/v21.0/me/permissions?access_token=${other}`, {
      method: "DELETE",
    });
    expect(await answer.json()).toEqual({ success: true });
    await expect(adapter.listChannels(other)).rejects.toThrow("Invalid OAuth access token");
  });
});
