import { createServiceClient, describeError } from "@crafter/kit";
import {
  type GatewaySession,
  gatewayUrl,
  stackEnv,
  stackServiceCredentials,
  verifiedSession,
} from "@crafter/kit/testing";
import { MediaService } from "@crafter/proto/crafter/media/v1/media_pb";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import sharp from "sharp";

// The media REST routes through the gateway and the media service of a running test stack, on the
// real object store (MinIO from scripts/infra), MongoDB-compatible database, Kafka and billing.
// Offline providers (no IMAGE_PROVIDER/SPEECH_PROVIDER): the composer and espeak-ng + ffmpeg.
jest.setTimeout(120_000);

let session: GatewaySession;

/** A photo-like JPEG (noise over a gradient) carrying EXIF and a trailing payload after its end. */
async function photo(width = 2400, height = 1600): Promise<Buffer> {
  const noise = Buffer.alloc(width * height * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  const jpeg = await sharp(noise, { raw: { width, height, channels: 3 } })
    .blur(3)
    .jpeg({ quality: 85 })
    .withMetadata({ exif: { IFD0: { Artist: "Secret Artist", Copyright: "GPS-ish secret" } } })
    .toBuffer();
  return Buffer.concat([jpeg, Buffer.from("<?php echo 'payload'; ?>")]);
}

async function upload(bytes: Buffer, name: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(bytes)]), name);
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  const cookie = [...session.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const response = await fetch(`${gatewayUrl()}/api/media/assets`, {
    method: "POST",
    body: form,
    headers: { cookie, origin: gatewayUrl() },
  });
  return { status: response.status, body: (await response.json()) as { result: any; error: { code: string } | null } };
}

async function raw(method: string, path: string, body?: unknown, contentType = "application/json") {
  const cookie = [...session.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  return fetch(`${gatewayUrl()}${path}`, {
    method,
    headers: { cookie, origin: gatewayUrl(), "content-type": contentType },
    body: body === undefined ? undefined : body instanceof Uint8Array ? new Uint8Array(body) : JSON.stringify(body),
  });
}

beforeAll(async () => {
  ({ session } = await verifiedSession("media"));
});

describe("assets", () => {
  let assetId: string;

  it("uploads a photo: checked by content, re-encoded without metadata or payload, with thumbnail and variants", async () => {
    const original = await photo();
    const { status, body } = await upload(original, "../../Beach Day.jpg", {
      profileType: "PRODUCT",
      profileIds: "p1,p2",
    });
    expect(status).toBe(201);
    const asset = body.result;
    expect(asset).toMatchObject({
      type: "image",
      source: "direct",
      name: "Beach Day.jpg",
      mime: "image/jpeg",
      width: 2400,
      height: 1600,
    });
    expect(asset.profileIds).toEqual(["p1", "p2"]);
    expect(asset.variants.map((v: { name: string }) => v.name)).toEqual(["w640", "w1280", "w1920"]);
    assetId = asset.id;

    const stored = Buffer.from(await (await fetch(`${gatewayUrl()}${asset.url}`)).arrayBuffer());
    expect(stored.includes(Buffer.from("Secret Artist"))).toBe(false);
    expect(stored.includes(Buffer.from("payload"))).toBe(false);
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
    const thumb = await sharp(
      Buffer.from(await (await fetch(`${gatewayUrl()}${asset.thumbnailUrl}`)).arrayBuffer()),
    ).metadata();
    expect(Math.max(thumb.width!, thumb.height!)).toBe(320);
  });

  it("refuses a file whose bytes are no image or audio, whatever its name, a multipart body without a file, and a part it does not take", async () => {
    const fake = await upload(Buffer.from("MZ this is an executable, not a photo"), "holiday.jpg");
    expect(fake.status).toBe(415);
    expect(fake.body.error?.code).toBe("MEDIA_UNSUPPORTED_TYPE");
    const empty = await raw("POST", "/api/media/assets", "x", "multipart/form-data; boundary=zzz");
    expect(empty.status).toBe(400);
    // A part the form does not take (the document lists them all).
    const extra = await upload(await photo(40, 30), "extra.png", { caption: "a holiday" });
    expect(extra.status).toBe(400);
    expect(extra.body.error?.code).toBe("CR_ERR_BAD_REQUEST");
  });

  it("refuses a tampered or expired signed URL", async () => {
    const { body } = await session.get(`/api/media/assets?type=image`);
    const url = new URL(body.result.result[0].url, gatewayUrl());
    url.searchParams.set("exp", String(Number(url.searchParams.get("exp")) + 3600));
    const tampered = await fetch(url);
    expect(tampered.status).toBe(403);
  });

  it("lists with filters and the spec's meta, renames, finds by a word of the name", async () => {
    await upload(await photo(400, 300), "second.png");
    const page = await session.get("/api/media/assets?type=image&pageSize=1");
    expect(page.status).toBe(200);
    expect(page.body.result.meta).toEqual({ count: 2, currentPage: 1, totalPages: 2 });
    const byProfile = await session.get("/api/media/assets?profileIds=p2");
    expect(byProfile.body.result.result.map((a: { id: string }) => a.id)).toEqual([assetId]);
    const renamed = await session.request("PATCH", `/api/media/assets/${assetId}`, { name: "Summer campaign hero" });
    expect(renamed.body.result.name).toBe("Summer campaign hero");
    const found = await session.get("/api/media/assets?q=campaign");
    expect(found.body.result.result.map((a: { id: string }) => a.id)).toEqual([assetId]);
    expect((await session.get("/api/media/assets?type=audio")).body.result.meta.count).toBe(0);
  });

  it("previews edits as WebP within 1200 px and saves them as a new asset", async () => {
    const operations = [
      { op: "crop", x: 200, y: 100, width: 1080, height: 1080 },
      { op: "filter", name: "grayscale" },
      { op: "text", text: "SALE", x: 40, y: 40, size: 120, color: "#ff0000" },
    ];
    const preview = await raw("POST", `/api/media/assets/${assetId}/preview`, { operations });
    expect(preview.status).toBe(200);
    expect(preview.headers.get("content-type")).toBe("image/webp");
    const meta = await sharp(Buffer.from(await preview.arrayBuffer())).metadata();
    // Computed on the 1200 px copy of the 2400 px photo: the 1080 px crop previews at 540 px.
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 540, 540]);
    expect(preview.headers.get("x-image-width")).toBe("540");

    const saved = await session.post(`/api/media/assets/${assetId}/edits`, { operations, name: "Hero square" });
    expect(saved.status).toBe(201);
    expect(saved.body.result).toMatchObject({ name: "Hero square", width: 1080, height: 1080, source: "direct" });
    const bad = await session.post(`/api/media/assets/${assetId}/preview`, {
      operations: [{ op: "crop", x: 9000, y: 0, width: 10, height: 10 }],
    });
    expect(bad.status).toBe(400);

    // Work over the preview's cost limit is refused before any pixel is computed (it took 9.7 s of CPU).
    const costly = [
      { op: "resize", width: 8192, height: 8192, fit: "fill" },
      { op: "rotate", degrees: 45 },
      { op: "filter", name: "blur", amount: 300 },
    ];
    const refused = await session.post(`/api/media/assets/${assetId}/preview`, { operations: costly });
    expect([refused.status, refused.body.error?.code]).toEqual([422, "MEDIA_EDIT_TOO_COSTLY"]);
    // And previews are limited per user: 120 a minute (this user made two more above).
    const statuses = await Promise.all(
      Array.from(
        { length: 120 },
        async () => (await session.post(`/api/media/assets/${assetId}/preview`, { operations: costly })).status,
      ),
    );
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set([422, 429]));
  });

  it("exports as one JPEG and as a streamed ZIP (the spec's defaults), and downloads the original", async () => {
    const list = (await session.get("/api/media/assets?type=image")).body.result.result as Array<{ id: string }>;
    const single = await raw("POST", "/api/media/export", {
      assetIds: [assetId],
      format: "image/jpeg",
      type: "single",
      filename: "hero.jpg",
    });
    expect(single.status).toBe(200);
    expect(single.headers.get("content-disposition")).toContain('filename="hero.jpg"');
    expect((await sharp(Buffer.from(await single.arrayBuffer())).metadata()).format).toBe("jpeg");

    const zip = await raw("POST", "/api/media/export", { assetIds: list.map((a) => a.id) });
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    expect(zip.headers.get("content-disposition")).toContain('filename="image.zip"');
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.subarray(0, 4).toString("hex")).toBe("504b0304");
    expect(bytes.toString("latin1").match(/\.png/g)?.length).toBeGreaterThanOrEqual(list.length);

    const download = await raw("GET", `/api/media/assets/${assetId}/download`);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toContain("Summer campaign hero.jpg");
  });

  it("deletes an asset and its files; a second delete is 404", async () => {
    const url = (await session.get("/api/media/assets?q=campaign")).body.result.result[0].url;
    expect((await session.request("DELETE", `/api/media/assets/${assetId}`)).status).toBe(200);
    expect((await session.request("DELETE", `/api/media/assets/${assetId}`)).status).toBe(404);
    expect((await fetch(`${gatewayUrl()}${url}`)).status).toBe(404);
  });
});

describe("video upload", () => {
  it("is chunked and resumable: an interrupted upload resumes from what arrived", async () => {
    // An MP4 header (ftyp box) followed by filler: what file-type recognises as video/mp4.
    const chunkSize = 5 * 1024 * 1024;
    const size = chunkSize * 2 + 1000;
    const video = Buffer.alloc(size, 7);
    Buffer.from("000000186674797069736f6d0000020069736f6d69736f32", "hex").copy(video, 0);
    const started = await session.post("/api/media/uploads", { name: "clip.mp4", size, mime: "video/mp4" });
    expect(started.status).toBe(201);
    const { uploadId } = started.body.result;
    expect(started.body.result.chunkSize).toBe(chunkSize);
    const put = (index: number) =>
      raw(
        "PUT",
        `/api/media/uploads/${uploadId}/chunks/${index}`,
        video.subarray(index * chunkSize, (index + 1) * chunkSize),
        "application/octet-stream",
      );

    expect((await put(0)).status).toBe(200);
    // The connection drops during chunk 1: a truncated body is refused, nothing is stored for it.
    const cut = await raw(
      "PUT",
      `/api/media/uploads/${uploadId}/chunks/1`,
      video.subarray(chunkSize, chunkSize + 1000),
      "application/octet-stream",
    );
    expect(cut.status).toBe(400);
    const status = await session.get(`/api/media/uploads/${uploadId}`);
    expect(status.body.result).toMatchObject({ received: chunkSize, size, chunks: [0], complete: false });
    expect((await session.post(`/api/media/uploads/${uploadId}/complete`)).status).toBe(409);

    for (let index = status.body.result.received / chunkSize; index < 3; index++)
      expect((await put(index)).status).toBe(200);
    const done = await session.post(`/api/media/uploads/${uploadId}/complete`);
    expect(done.status).toBe(200);
    expect(done.body.result).toMatchObject({ type: "video", mime: "video/mp4", size });
    const stored = Buffer.from(await (await fetch(`${gatewayUrl()}${done.body.result.url}`)).arrayBuffer());
    expect(stored.equals(video)).toBe(true);
    expect((await session.get(`/api/media/uploads/${uploadId}`)).body.result).toMatchObject({
      received: size,
      complete: true,
    });
    expect((await session.post(`/api/media/uploads/${uploadId}/complete`)).body.result.id).toBe(done.body.result.id);
    expect((await put(0)).status).toBe(409);
  });

  it("refuses a first chunk that is not a video", async () => {
    const started = await session.post("/api/media/uploads", { name: "x.mp4", size: 100, mime: "video/mp4" });
    const bad = await raw(
      "PUT",
      `/api/media/uploads/${started.body.result.uploadId}/chunks/0`,
      Buffer.alloc(100, 1),
      "application/octet-stream",
    );
    expect(bad.status).toBe(415);
  });
});

describe("generation and stock without providers", () => {
  it("composes an image offline in the network's size, labelled honestly, and charges credits", async () => {
    const before = (await session.get("/api/user/account")).body.result;
    const made = await session.post("/api/media/images/generate", {
      prompt: "Fresh sourdough at the city market",
      size: "1200x628",
      headline: "Fresh bread, every morning",
      colors: ["#1d3557", "#e63946"],
    });
    expect(made.status).toBe(201);
    expect(made.body.result).toMatchObject({
      source: "composed",
      label: "composed, not generated",
      width: 1200,
      height: 628,
    });
    const after = (await session.get("/api/user/account")).body.result;
    // IMAGE_CREDITS (5 by default) per image, debited before the work.
    expect(before.credits - after.credits).toBe(5);
  });

  it("serves the system images as stock", async () => {
    const stock = await session.get("/api/media/stock?q=city");
    expect(stock.status).toBe(200);
    expect(stock.body.result.source).toBe("system");
    expect(stock.body.result.result[0]).toMatchObject({ id: "city-night", source: "system" });
    const image = await fetch(`${gatewayUrl()}${stock.body.result.result[0].url}`);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
    // Choosing a system image has no download to record (Unsplash's tracking is for its photos).
    expect((await session.post("/api/media/stock/city-night/download", {})).body.result).toEqual({ tracked: false });
    expect((await session.post("/api/media/stock/no-such-image/download", {})).status).toBe(404);
  });
});

describe("speech", () => {
  it("speaks the whole script with espeak-ng, one voice per speaker, for workflows' service token only", async () => {
    const client = createServiceClient(MediaService, stackEnv().MEDIA_URL!, {
      timeoutMs: 120_000,
      as: "service",
      credentials: stackServiceCredentials("workflows"),
    });
    // The user's id is the subject of their access token (the crafter_at cookie).
    const token = session.cookies.get("crafter_at")!;
    const userId = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).sub as string;
    const segments = [
      { speaker: "Host", text: "Welcome to the bakery podcast." },
      { speaker: "Guest", text: "Thanks for having me. Let us talk about rye." },
      { speaker: "Host", text: "That was all for today. Goodbye." },
    ];
    const asset = await client.generateSpeech({ userId, segments, name: "Episode 1", key: "craft-1:audio" });
    expect(asset).toMatchObject({ type: "audio", mime: "audio/mpeg", source: "AI" });
    expect(asset.durationMs).toBeGreaterThan(4000);
    const again = await client.generateSpeech({ userId, segments, name: "Episode 1", key: "craft-1:audio" });
    expect(again.id).toBe(asset.id);
    const mp3 = Buffer.from(await (await fetch(`${gatewayUrl()}${asset.url}`)).arrayBuffer());
    expect(mp3.subarray(0, 3).toString() === "ID3" || mp3[0] === 0xff).toBe(true);

    const user = createServiceClient(MediaService, stackEnv().MEDIA_URL!, { timeoutMs: 30_000 });
    const refused = await user.generateSpeech({ userId, segments }).then(
      () => 0,
      (e) => describeError(e).status,
    );
    expect(refused).toBe(401);
  });
});

describe("designs", () => {
  it("saves, updates, stores the browser's PNG and exports it", async () => {
    const created = await session.post("/api/media/designs", {
      name: "Launch post",
      width: 1080,
      height: 1080,
      stages: [{ elements: [] }],
    });
    expect(created.status).toBe(201);
    const id = created.body.result.id;
    expect((await session.post(`/api/media/designs/${id}/export`, { format: "image/png" })).status).toBe(409);
    const png = await sharp({ create: { width: 1080, height: 1080, channels: 3, background: "#336699" } })
      .png()
      .toBuffer();
    const withImage = await raw(
      "PUT",
      `/api/media/designs/${id}/image`,
      new Uint8Array(png),
      "application/octet-stream",
    );
    expect(withImage.status).toBe(200);
    const updated = await session.put(`/api/media/designs/${id}`, {
      name: "Launch post v2",
      width: 1080,
      height: 1080,
      stages: [{ elements: [{ type: "text" }] }],
    });
    expect(updated.body.result).toMatchObject({ name: "Launch post v2", stages: [{ elements: [{ type: "text" }] }] });
    const exported = await raw("POST", `/api/media/designs/${id}/export`, { format: "ZIP" });
    expect(exported.headers.get("content-type")).toBe("application/zip");
    expect((await session.get("/api/media/designs")).body.result.meta.count).toBe(1);
    expect((await session.request("DELETE", `/api/media/designs/${id}`)).status).toBe(200);
  });
});
