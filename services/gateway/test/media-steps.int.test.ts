import { type GatewaySession, gatewayUrl, verifiedSession } from "@crafter/kit/testing";
import { beforeAll, describe, expect, it, jest } from "@jest/globals";
import sharp from "sharp";

// The media steps of a craft, end to end through the gateway, workflows and the real media service
// (object store, billing): PodcastWriter's AudioGenerator speaks the whole script with espeak-ng, and
// SocialMediaPostWriter's ImageAppender makes its image with the offline composer (the test stack has
// no IMAGE_* or SPEECH_* settings; media-providers.int.test.ts covers the providers and refunds).
jest.setTimeout(120_000);

const W = "/api/workflowsV2";
let session: GatewaySession;

beforeAll(async () => {
  ({ session } = await verifiedSession("media-steps"));
});

const credits = async () => (await session.get("/api/user/account")).body.result.credits as number;

interface Step {
  name: string;
  status: string;
  state: string;
  results: { id: string; content: string; format: string; engine: string; note?: string; data?: any }[];
}
const stepOf = (craft: { steps: Step[] }, name: string) => craft.steps.find((step) => step.name === name)!;

async function complete(craftId: string, stepName: string, values: Record<string, unknown>) {
  const done = await session.put(`${W}/${craftId}/step/complete`, { stepName, values });
  expect(`${stepName} ${done.status}`).toBe(`${stepName} 200`);
  return done.body.result.craft;
}

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
    await complete(craftId, "episode", {
      topic: "Keeping a starter alive",
      host: "Sam",
      guest: "Ana",
      talkingPoints: ["Feeding schedules", "Reviving a sleepy starter"],
    });
    const scripted = await complete(craftId, "script", {});
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
    await complete(craftId, "brief", { network: "instagram", topic: "Our new sourdough starter kit is here" });
    const ideas = await complete(craftId, "imageIdeas", {
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
