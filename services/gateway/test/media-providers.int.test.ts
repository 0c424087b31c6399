import { execFileSync } from "node:child_process";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { type GatewaySession, stackEnv, verifiedSession } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it, jest } from "@jest/globals";
import sharp from "sharp";
import { complete, stepOf, W } from "./craft-steps";

// The media providers through the real media service, workflows, billing and object store, against
// one local server that speaks their HTTP protocols: OpenAI's Images API (POST /v1/images/generations,
// b64_json answers), OpenAI's speech API (POST /v1/audio/speech, MP3 bytes) and Unsplash's search
// (GET /search/photos, `Authorization: Client-ID`). The stack must be started with
// (port = 28398 + STACK_PORT_OFFSET, or FAKE_IMAGES_PORT; scripts/test-stack.sh's media_provider_env):
//   IMAGE_PROVIDER=openai IMAGE_API_KEY=test IMAGE_BASE_URL=http://127.0.0.1:<port>/v1
//   SPEECH_PROVIDER=openai SPEECH_API_KEY=test-speech SPEECH_BASE_URL=http://127.0.0.1:<port>/v1
//   UNSPLASH_ACCESS_KEY=test-unsplash UNSPLASH_API_URL=http://127.0.0.1:<port>
// (media.int.test.ts and media-steps.int.test.ts want a stack without them: the offline composer and espeak-ng).
jest.setTimeout(120_000);

const port = Number(stackEnv().FAKE_IMAGES_PORT ?? 28398 + Number(process.env.STACK_PORT_OFFSET ?? 0));
interface Received {
  path: string;
  auth: string | undefined;
  headers: IncomingMessage["headers"];
  body: any;
}
const received: Received[] = [];
const sent = (prefix: string) => received.filter((r) => r.path.startsWith(prefix));
let mode: "ok" | "fail" | "elsewhere" = "ok";
let server: Server;
let session: GatewaySession;

/** Unsplash's answer to a search: the fields its API documents, one photo per page here. */
const unsplashPage = (query: string, page: number) => ({
  total: 41,
  total_pages: 3,
  results: [
    {
      id: `u-${query}-${page}`,
      description: null,
      alt_description: `a photo of ${query}`,
      width: 4000,
      height: 2667,
      urls: {
        raw: "https://images.unsplash.com/photo-1?ixid=x",
        full: "https://images.unsplash.com/photo-1?q=85",
        regular: "https://images.unsplash.com/photo-1?w=1080",
        small: "https://images.unsplash.com/photo-1?w=400",
        thumb: "https://images.unsplash.com/photo-1?w=200",
      },
      links: { download_location: `http://127.0.0.1:${port}/photos/u-${query}-${page}/download?ixid=x` },
      user: { name: "Ana Baker", links: { html: "https://unsplash.com/@anabaker" } },
    },
  ],
});

beforeAll(async () => {
  const png = (
    await sharp({ create: { width: 1792, height: 1024, channels: 3, background: "#2a9d8f" } })
      .png()
      .toBuffer()
  ).toString("base64");
  // A real MP3 (a second of tone) for each spoken segment: the media service joins them with ffmpeg.
  const mp3 = execFileSync("ffmpeg", [
    "-v",
    "error",
    "-f",
    "lavfi",
    "-i",
    "sine=frequency=440:duration=1",
    "-f",
    "mp3",
    "-",
  ]);
  const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#8d6e63" } })
    .jpeg()
    .toBuffer();
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
      received.push({
        path: url.pathname + url.search,
        auth: req.headers.authorization,
        headers: req.headers,
        body: body ? JSON.parse(body) : undefined,
      });
      const fail = () =>
        res
          .writeHead(500, { "content-type": "application/json" })
          .end(JSON.stringify({ error: { message: "boom", type: "server_error" } }));
      if (req.method === "POST" && url.pathname === "/v1/images/generations") {
        if (mode === "fail") return fail();
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ created: 1, data: [{ b64_json: png }] }));
        return;
      }
      if (req.method === "POST" && url.pathname === "/v1/audio/speech") {
        if (mode === "fail") return fail();
        res.writeHead(200, { "content-type": "audio/mpeg" }).end(mp3);
        return;
      }
      if (req.method === "GET" && url.pathname === "/search/photos") {
        if (mode === "fail") return fail();
        if (req.headers.authorization !== "Client-ID test-unsplash") {
          res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ errors: ["OAuth error"] }));
          return;
        }
        const answer = unsplashPage(url.searchParams.get("query") ?? "", Number(url.searchParams.get("page") ?? 1));
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
        return;
      }
      const download = /^\/photos\/([^/]+)\/download$/.exec(url.pathname);
      if (req.method === "GET" && download) {
        if (mode === "fail") return fail();
        if (!download[1]!.startsWith("u-")) {
          res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ errors: ["Not found"] }));
          return;
        }
        // Unsplash answers the photo's URL on its image host; here, this server (the API's own origin).
        const location =
          mode === "elsewhere" ? "http://169.254.169.254/latest/meta-data" : `http://127.0.0.1:${port}/photo-1.jpg`;
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ url: location }));
        return;
      }
      if (req.method === "GET" && url.pathname === "/photo-1.jpg") {
        res.writeHead(200, { "content-type": "image/jpeg" }).end(photo);
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  ({ session } = await verifiedSession("media-ai"));
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const credits = async () => (await session.get("/api/user/account")).body.result.credits as number;

describe("image generation with DALL·E configured", () => {
  it("sends the prompt in the closest DALL·E size, stores the image in the network's size, and debits credits", async () => {
    mode = "ok";
    const before = await credits();
    const made = await session.post("/api/media/images/generate", { prompt: "A rye loaf on linen", size: "1200x628" });
    expect(made.status).toBe(201);
    expect(made.body.result).toMatchObject({ source: "AI", label: "generated by openai", width: 1200, height: 628 });
    const request = sent("/v1/images/generations").at(-1)!;
    expect(request.auth).toBe("Bearer test");
    expect(request.body).toMatchObject({ prompt: "A rye loaf on linen", size: "1792x1024", model: "dall-e-3" });
    expect(before - (await credits())).toBe(5);
  });

  it("answers MEDIA_PROVIDER_FAILED when the provider fails, and refunds the credits", async () => {
    mode = "fail";
    const before = await credits();
    const failed = await session.post("/api/media/images/generate", {
      prompt: "A rye loaf on linen",
      size: "1080x1080",
    });
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("MEDIA_PROVIDER_FAILED");
    expect(await credits()).toBe(before);
    expect((await session.get("/api/media/assets?source=AI")).body.result.meta.count).toBe(1);
  });
});

describe("a social post's image step with DALL·E configured", () => {
  it("sends the written prompt in Instagram's closest size, and refunds when DALL·E fails", async () => {
    const craftId = (await session.post(W, { workflowName: "SocialMediaPostWriter" })).body.result.craftId as string;
    await complete(session, craftId, "brief", { network: "instagram", topic: "Our new sourdough starter kit is here" });
    await complete(session, craftId, "imageIdeas", { subject: "A jar of bubbling starter" });

    mode = "fail";
    const before = await credits();
    const failed = await session.post(`${W}/${craftId}/image/ImageAppender`, { params: {} });
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("MEDIA_PROVIDER_FAILED");
    expect(await credits()).toBe(before);
    expect(stepOf((await session.get(`${W}/${craftId}`)).body.result, "image").results).toEqual([]);

    mode = "ok";
    const made = await session.post(`${W}/${craftId}/image/ImageAppender`, { params: {} });
    expect(made.status).toBe(200);
    expect(made.body.result.result.data.asset).toMatchObject({ source: "AI", width: 1080, height: 1080 });
    expect(made.body.result.result.note).toBe("generated by openai");
    const request = sent("/v1/images/generations").at(-1)!;
    expect(request.body.size).toBe("1024x1024");
    expect(request.body.prompt).toContain("A jar of bubbling starter");
    expect(before - (await credits())).toBe(5);
  });
});

describe("the podcast's audio with OpenAI speech configured", () => {
  it("speaks every segment with one voice per speaker, joins them into one MP3, and refunds a failure", async () => {
    const craftId = (await session.post(W, { workflowName: "PodcastWriter" })).body.result.craftId as string;
    await complete(session, craftId, "episode", {
      topic: "Keeping a starter alive",
      host: "Sam",
      guest: "Ana",
      talkingPoints: ["Feeding schedules", "Meet Ana"],
    });
    const scripted = await complete(session, craftId, "script", {});
    // The user gives the guest real lines in the first segment (the offline draft leaves "[answer]").
    const first = stepOf(scripted, "script").results.find((r: { itemIndex: number }) => r.itemIndex === 0);
    const edited = await session.put(`${W}/${craftId}/script/saveOrUpdateActionResult`, {
      resultId: first.id,
      content: "[Cold open]\nSam: Welcome to the show.\nANA: Glad to be here, Sam.\nSam: Let's start.",
    });
    expect(edited.status).toBe(200);

    mode = "fail";
    const before = await credits();
    const failed = await session.post(`${W}/${craftId}/audio/AudioGenerator`, { params: {} });
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("MEDIA_PROVIDER_FAILED");
    expect(await credits()).toBe(before);
    expect(stepOf((await session.get(`${W}/${craftId}`)).body.result, "audio").results).toEqual([]);

    mode = "ok";
    const from = received.length;
    const made = await session.post(`${W}/${craftId}/audio/AudioGenerator`, { params: {} });
    expect(made.status).toBe(200);
    const asset = made.body.result.result.data.asset;
    expect(asset).toMatchObject({ type: "audio", mime: "audio/mpeg", label: "spoken by openai" });
    const requests = received.slice(from).filter((r) => r.path === "/v1/audio/speech");
    expect(requests.length).toBeGreaterThanOrEqual(3);
    for (const request of requests) {
      expect(request.auth).toBe("Bearer test-speech");
      expect(request.body).toMatchObject({ model: "tts-1", response_format: "mp3" });
    }
    // In script order; Sam hosts in the first voice, the guest speaks in the second.
    expect(requests.slice(0, 3).map((r) => [r.body.voice, r.body.input])).toEqual([
      ["alloy", "Welcome to the show."],
      ["nova", "Glad to be here, Sam."],
      ["alloy", expect.stringMatching(/^Let's start\. /)],
    ]);
    expect(requests.slice(3).every((r) => r.body.voice === "alloy")).toBe(true);
    // One second of tone per request, joined.
    expect(asset.durationMs).toBeGreaterThanOrEqual(requests.length * 1000 - 300);
    expect(before - (await credits())).toBeGreaterThanOrEqual(2);
  });
});

describe("stock photos with an Unsplash key configured", () => {
  it("searches Unsplash with the Client-ID key and answers its photos with their author, paged", async () => {
    mode = "ok";
    const found = await session.get("/api/media/stock?q=sourdough%20bread&page=2");
    expect(found.status).toBe(200);
    expect(found.body.result.source).toBe("unsplash");
    expect(found.body.result.result).toEqual([
      expect.objectContaining({
        id: "u-sourdough bread-2",
        description: "a photo of sourdough bread",
        url: "https://images.unsplash.com/photo-1?w=1080",
        thumbnailUrl: "https://images.unsplash.com/photo-1?w=200",
        author: "Ana Baker",
        authorUrl: "https://unsplash.com/@anabaker",
        source: "unsplash",
      }),
    ]);
    expect(found.body.result.meta).toMatchObject({ count: 41, currentPage: 2, totalPages: 3 });
    const request = sent("/search/photos").at(-1)!;
    expect(request.auth).toBe("Client-ID test-unsplash");
    expect(request.headers["accept-version"]).toBe("v1");
    const query = new URL(request.path, "http://x").searchParams;
    expect([query.get("query"), query.get("page"), query.get("per_page")]).toEqual(["sourdough bread", "2", "20"]);
  });

  it("records the download of a chosen photo with Unsplash, as its guidelines require", async () => {
    mode = "ok";
    const tracked = await session.post("/api/media/stock/u-bread-1/download", {});
    expect(tracked.status).toBe(200);
    expect(tracked.body.result).toEqual({ tracked: true });
    const request = sent("/photos/").at(-1)!;
    expect([request.path, request.auth, request.headers["accept-version"]]).toEqual([
      "/photos/u-bread-1/download",
      "Client-ID test-unsplash",
      "v1",
    ]);
    expect((await session.post("/api/media/stock/nope/download", {})).status).toBe(404);
    // Only an id goes to Unsplash, never a path or a URL.
    const before = received.length;
    expect((await session.post("/api/media/stock/..%2F..%2Fsearch%2Fphotos/download", {})).status).toBe(400);
    expect(received.length).toBe(before);
  });

  it("keeps a chosen Unsplash photo as the craft step's image, downloaded through Unsplash, never from elsewhere", async () => {
    mode = "ok";
    const craftId = (await session.post(W, { workflowName: "SocialMediaPostWriter" })).body.result.craftId as string;
    await complete(session, craftId, "brief", { network: "facebook", topic: "Fresh rye on Fridays" });
    await complete(session, craftId, "imageIdeas", { subject: "A rye loaf" });
    const before = await credits();
    const from = received.length;
    const picked = await session.post(`${W}/${craftId}/image/ImageAppender`, { params: { stockId: "u-bread-1" } });
    expect(picked.status).toBe(200);
    expect(picked.body.result.result.data.asset).toMatchObject({ source: "unsplash", width: 1200, height: 800 });
    expect(received.slice(from).map((r) => r.path)).toEqual(["/photos/u-bread-1/download", "/photo-1.jpg"]);
    expect(await credits()).toBe(before);

    // A download answer naming another host is refused: nothing is fetched from it.
    mode = "elsewhere";
    const refused = await session.post(`${W}/${craftId}/image/ImageAppender`, { params: { stockId: "u-rye-2" } });
    expect([refused.status, refused.body.error.code]).toEqual([502, "MEDIA_PROVIDER_FAILED"]);
    mode = "ok";
  });

  it("answers MEDIA_PROVIDER_FAILED, not a 500, when Unsplash fails", async () => {
    mode = "fail";
    const failed = await session.get("/api/media/stock?q=bread");
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("MEDIA_PROVIDER_FAILED");
    const untracked = await session.post("/api/media/stock/u-bread-1/download", {});
    expect(untracked.status).toBe(502);
    expect(untracked.body.error.code).toBe("MEDIA_PROVIDER_FAILED");
    mode = "ok";
  });
});
