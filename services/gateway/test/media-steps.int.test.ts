import { type GatewaySession, gatewayUrl, verifiedSession } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import sharp from "sharp";
import { complete, stepOf, W } from "./craft-steps";

// The media steps of a craft, end to end through the gateway, workflows and the real media service
// (object store, billing): PodcastWriter's AudioGenerator speaks the whole script with espeak-ng, and
// SocialMediaPostWriter's ImageAppender makes its image with the offline composer (the test stack has
// no IMAGE_* or SPEECH_* settings; media-providers.int.test.ts covers the providers and refunds).
jest.setTimeout(120_000);

let session: GatewaySession;

beforeAll(async () => {
  ({ session } = await verifiedSession("media-steps"));
});

const credits = async () => (await session.get("/api/user/account")).body.result.credits as number;

/** The file behind a result's asset, as the signed-in owner's browser fetches it. */
async function fileOf(url: string): Promise<Buffer> {
  expect(url).toMatch(/^\/api\/media\/assets\/[^/]+\/download$/);
  const cookie = [...session.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const response = await fetch(`${gatewayUrl()}${url}`, { headers: { cookie } });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

describe("PodcastWriter's audio step", () => {
  it("records the whole script in one MP3, debits the spoken minutes, and keeps it in the step", async () => {
    const craftId = (await session.post(W, { workflowName: "PodcastWriter" })).body.result.craftId as string;
    await complete(session, craftId, "episode", {
      topic: "Keeping a starter alive",
      host: "Sam",
      guest: "Ana",
      talkingPoints: ["Feeding schedules", "Reviving a sleepy starter"],
    });
    const scripted = await complete(session, craftId, "script", {});
    // Done on open: the craft does not wait for the audio.
    expect(stepOf(scripted, "audio")).toMatchObject({ status: "completed", results: [] });
    const scripts = stepOf(scripted, "script").results;
    expect(scripts.length).toBeGreaterThanOrEqual(3);

    const before = await credits();
    const made = await session.post(`${W}/${craftId}/audio/AudioGenerator`, { params: {} });
    expect(made.status).toBe(200);
    const asset = made.body.result.result.data.asset;
    expect(asset).toMatchObject({ type: "audio", mime: "audio/mpeg", source: "AI", label: "spoken by espeak-ng" });
    expect(made.body.result.result).toMatchObject({ engine: "media:speech", note: "spoken by espeak-ng" });
    // 2 credits a minute, the minutes estimated at 150 words before speaking.
    const spent = before - (await credits());
    expect(spent).toBeGreaterThanOrEqual(2);
    expect(spent % 2).toBe(0);

    // Every segment is spoken: longer than the longest segment alone at espeak's 165 words a minute.
    const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const longest = Math.max(...scripts.map((result) => words(result.content)));
    expect(asset.durationMs).toBeGreaterThan(((longest * 60) / 165) * 1000 * 1.5);
    const mp3 = await fileOf(asset.url);
    // An ID3 tag or an MPEG audio frame sync.
    expect(mp3.subarray(0, 3).toString() === "ID3" || (mp3[0] === 0xff && (mp3[1]! & 0xe0) === 0xe0)).toBe(true);

    const saved = (await session.get(`${W}/${craftId}`)).body.result;
    expect(stepOf(saved, "audio").results).toHaveLength(1);
    expect(stepOf(saved, "audio").results[0]!.data.asset.id).toBe(asset.id);
    expect(
      (await session.get("/api/media/assets?type=audio")).body.result.result.map((a: { id: string }) => a.id),
    ).toContain(asset.id);

    // The same script again is the same recording: no second debit.
    const again = await session.post(`${W}/${craftId}/audio/AudioGenerator`, { params: {} });
    expect(again.status).toBe(200);
    expect(again.body.result.result.data.asset.id).toBe(asset.id);
    expect(before - (await credits())).toBe(spent);
  });

  it("refuses to record before there is a script, without a debit", async () => {
    const craftId = (await session.post(W, { workflowName: "PodcastWriter" })).body.result.craftId as string;
    const early = await session.post(`${W}/${craftId}/audio/AudioGenerator`, { params: {} });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("CONFLICT");
  });
});

describe("SocialMediaPostWriter's image step", () => {
  it("makes the post's image in the network's size from the written prompt, debited, and keeps it", async () => {
    const craftId = (await session.post(W, { workflowName: "SocialMediaPostWriter" })).body.result.craftId as string;
    await complete(session, craftId, "brief", { network: "instagram", topic: "Our new sourdough starter kit is here" });
    const ideas = await complete(session, craftId, "imageIdeas", {
      subject: "A jar of bubbling starter",
      primaryColor: "#c0392b",
    });
    expect(stepOf(ideas, "image")).toMatchObject({ status: "completed", results: [] });

    const before = await credits();
    const made = await session.post(`${W}/${craftId}/image/ImageAppender`, { params: {} });
    expect(made.status).toBe(200);
    const result = made.body.result.result;
    expect(result).toMatchObject({ engine: "media:image", format: "data", note: "composed, not generated" });
    expect(result.content).toContain("A jar of bubbling starter");
    expect(result.data.asset).toMatchObject({ type: "image", source: "composed", width: 1080, height: 1080 });
    expect(before - (await credits())).toBe(5);
    const meta = await sharp(await fileOf(result.data.asset.url)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 1080, 1080]);

    // Chosen in the image select viewer: saved with the step.
    const chosen = await session.put(`${W}/${craftId}/image/saveOrUpdateActionResult`, {
      resultId: result.id,
      selected: true,
    });
    expect(chosen.status).toBe(200);
    const saved = (await session.get(`${W}/${craftId}`)).body.result;
    expect(stepOf(saved, "image").results).toMatchObject([{ id: result.id, selected: true }]);
  });
});

/** Raw bytes to the gateway as the signed-in browser sends them (a design's PNG, an upload). */
async function send(as: GatewaySession, method: string, path: string, body: BodyInit, contentType?: string) {
  const cookie = [...as.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const response = await fetch(`${gatewayUrl()}${path}`, {
    method,
    body,
    headers: { cookie, origin: gatewayUrl(), ...(contentType ? { "content-type": contentType } : {}) },
  });
  return { status: response.status, body: (await response.json()) as { result: any; error: { code: string } | null } };
}

const pngOf = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

describe("VisualDesigner's design step", () => {
  it("waits for the design; saving it completes the step with the design and its PNG, nothing debited", async () => {
    const craftId = (await session.post(W, { workflowName: "VisualDesigner" })).body.result.craftId as string;
    const briefed = await complete(session, craftId, "brief", {
      format: "story",
      headline: "Autumn wheel truing",
      subject: "A bike wheel in a workshop",
      primaryColor: "#102030",
    });
    // The canvas waits for the user: open, not skipped, no "coming soon".
    expect(stepOf(briefed, "design")).toMatchObject({ status: "inprogress", results: [] });
    expect(briefed.state).toBe("InProgress");
    const none = await session.put(`${W}/${craftId}/step/complete`, { stepName: "design", values: {} });
    expect([none.status, none.body.error.code, none.body.error.fields]).toEqual([
      400,
      "CR_ERR_BAD_REQUEST",
      { designId: "Required" },
    ]);

    const design = await session.post("/api/media/designs", {
      name: "Autumn wheel truing",
      width: 1080,
      height: 1920,
      stages: [{ id: "s1", name: "Page 1", elements: [] }],
    });
    expect(design.status).toBe(201);
    const designId = design.body.result.id as string;
    // Saved without its PNG yet: nothing to keep.
    const early = await session.put(`${W}/${craftId}/step/complete`, { stepName: "design", values: { designId } });
    expect([early.status, early.body.error.code]).toEqual([409, "CONFLICT"]);
    expect(
      (
        await send(
          session,
          "PUT",
          `/api/media/designs/${designId}/image`,
          new Uint8Array(await pngOf(1080, 1920, "#102030")),
          "application/octet-stream",
        )
      ).status,
    ).toBe(200);

    const before = await credits();
    const done = await complete(session, craftId, "design", { designId });
    expect(done.state).toBe("Completed");
    const [result] = stepOf(done, "design").results;
    expect(stepOf(done, "design").status).toBe("completed");
    expect(result).toMatchObject({ format: "data", engine: "media:designer", content: "Autumn wheel truing" });
    expect(result!.data.design).toEqual({ id: designId, name: "Autumn wheel truing", width: 1080, height: 1920 });
    expect(result!.data.asset).toMatchObject({ type: "image", source: "designer", width: 1080, height: 1920 });
    // A designer save is no AI generation.
    expect(await credits()).toBe(before);
    const meta = await sharp(await fileOf(result!.data.asset.url)).metadata();
    expect([meta.width, meta.height]).toEqual([1080, 1920]);
    // The design's image is one of the user's assets, source "designer".
    const listed = (await session.get("/api/media/assets?type=image&source=designer")).body.result.result;
    expect(listed.map((a: { id: string }) => a.id)).toContain(result!.data.asset.id);

    // Reopened, the step still names the same design; saved again unchanged, the same asset (no copy).
    const editing = (await session.post(`${W}/${craftId}/design/editStep`, {})).body.result;
    expect(stepOf(editing, "design").results[0]!.data.design.id).toBe(designId);
    const again = await complete(session, craftId, "design", { designId });
    expect(stepOf(again, "design").results.map((r) => r.data.asset.id)).toEqual([result!.data.asset.id]);
    // A new PNG saved with the design: a new image replaces the step's result.
    await send(
      session,
      "PUT",
      `/api/media/designs/${designId}/image`,
      new Uint8Array(await pngOf(1080, 1920, "#ffcc00")),
      "application/octet-stream",
    );
    await session.post(`${W}/${craftId}/design/editStep`, {});
    const changed = await complete(session, craftId, "design", { designId });
    expect(stepOf(changed, "design").results).toHaveLength(1);
    expect(stepOf(changed, "design").results[0]!.data.asset.id).not.toBe(result!.data.asset.id);
  });

  it("refuses another user's design and a malformed id", async () => {
    const { session: other } = await verifiedSession("media-steps-other");
    const theirs = await other.post("/api/media/designs", { name: "Theirs", width: 100, height: 100, stages: [] });
    const craftId = (await session.post(W, { workflowName: "VisualDesigner" })).body.result.craftId as string;
    await complete(session, craftId, "brief", { format: "square", subject: "A loaf" });
    const stolen = await session.put(`${W}/${craftId}/step/complete`, {
      stepName: "design",
      values: { designId: theirs.body.result.id },
    });
    expect([stolen.status, stolen.body.error.code]).toEqual([404, "NOT_FOUND"]);
    const bad = await session.put(`${W}/${craftId}/step/complete`, {
      stepName: "design",
      values: { designId: "../x" },
    });
    expect([bad.status, bad.body.error.code]).toEqual([400, "CR_ERR_BAD_REQUEST"]);
  });
});

describe("ImageAppender with the user's own image", () => {
  it("keeps an uploaded image as the step's result, like a generated one, without a debit", async () => {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(await pngOf(1200, 628, "#2f6f5e"))]), "shop front.png");
    const uploaded = await send(session, "POST", "/api/media/assets", form);
    expect(uploaded.status).toBe(201);
    const assetId = uploaded.body.result.id as string;

    const craftId = (await session.post(W, { workflowName: "SocialMediaPostWriter" })).body.result.craftId as string;
    await complete(session, craftId, "brief", { network: "facebook", topic: "We moved to a bigger shop" });
    await complete(session, craftId, "imageIdeas", { subject: "Our new shop front" });
    const before = await credits();
    const picked = await session.post(`${W}/${craftId}/image/ImageAppender`, { params: { assetId } });
    expect(picked.status).toBe(200);
    expect(picked.body.result.result).toMatchObject({ engine: "user", format: "data", content: "shop front.png" });
    expect(picked.body.result.result.data.asset).toMatchObject({
      id: assetId,
      type: "image",
      source: "direct",
      url: `/api/media/assets/${assetId}/download`,
      width: 1200,
      height: 628,
    });
    expect(await credits()).toBe(before);
    const saved = (await session.get(`${W}/${craftId}`)).body.result;
    expect(stepOf(saved, "image").results.map((r) => r.data.asset.id)).toEqual([assetId]);

    const missing = await session.post(`${W}/${craftId}/image/ImageAppender`, { params: { assetId: "no-such-asset" } });
    expect([missing.status, missing.body.error.code]).toEqual([404, "NOT_FOUND"]);
  });

  it("keeps a stock photo (a system image here) in the user's assets and as the step's result, once", async () => {
    const stock = (await session.get("/api/media/stock?q=")).body.result;
    expect(stock.source).toBe("system");
    const photo = stock.result[0];
    const craftId = (await session.post(W, { workflowName: "SocialMediaPostWriter" })).body.result.craftId as string;
    await complete(session, craftId, "brief", { network: "instagram", topic: "Spring opening hours" });
    await complete(session, craftId, "imageIdeas", { subject: "A sunny shop window" });
    const before = await credits();
    const picked = await session.post(`${W}/${craftId}/image/ImageAppender`, { params: { stockId: photo.id } });
    expect(picked.status).toBe(200);
    const asset = picked.body.result.result.data.asset;
    expect(picked.body.result.result.engine).toBe("user");
    expect(asset).toMatchObject({ type: "image", source: "system", width: photo.width, height: photo.height });
    expect(await credits()).toBe(before);
    const meta = await sharp(await fileOf(asset.url)).metadata();
    expect([meta.width, meta.height]).toEqual([photo.width, photo.height]);
    // Chosen again: the same asset, not a copy.
    const again = await session.post(`${W}/${craftId}/image/ImageAppender`, { params: { stockId: photo.id } });
    expect(again.body.result.result.data.asset.id).toBe(asset.id);
    const missing = await session.post(`${W}/${craftId}/image/ImageAppender`, { params: { stockId: "nope" } });
    expect([missing.status, missing.body.error.code]).toEqual([404, "NOT_FOUND"]);
  });
});
