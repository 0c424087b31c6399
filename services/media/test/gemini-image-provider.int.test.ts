import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import sharp from "sharp";
import { createImageProvider } from "../src/providers/images";
import { aspectRatioOf, type FakeGeminiImage, startFakeGeminiImage } from "./fake-gemini-image-server";

// A Gemini image model through the Vercel AI SDK's Google provider, against a local server that speaks the
// Generative Language API's `models/<model>:generateContent` (./fake-gemini-image-server.ts). The media service's
// IMAGE_PROVIDER is one per process; DALL·E is tested through the whole stack
// (services/gateway/test/media-providers.int.test.ts), Gemini here and in media-gemini-image.int.test.ts.

let fake: FakeGeminiImage;
let png: Buffer;

beforeAll(async () => {
  png = await sharp({ create: { width: 1408, height: 768, channels: 3, background: "#e76f51" } })
    .png()
    .toBuffer();
  fake = await startFakeGeminiImage({ "16:9": png });
});

afterAll(() => fake.close());

const gemini = () =>
  createImageProvider({
    IMAGE_PROVIDER: "google",
    IMAGE_API_KEY: "test-google",
    IMAGE_BASE_URL: fake.baseURL,
    IMAGE_MODEL: undefined,
    PROVIDER_TIMEOUT_MS: 10_000,
  })!;

describe("Gemini image", () => {
  it("asks the Gemini image model for one image in the closest aspect ratio and returns its bytes", async () => {
    fake.mode = "ok";
    const provider = gemini();
    expect(provider.name).toBe("google");
    const bytes = await provider.generate(
      "A rye loaf on linen",
      { width: 1200, height: 628 },
      AbortSignal.timeout(10_000),
    );
    expect(bytes.equals(png)).toBe(true);
    expect(fake.received.at(-1)).toMatchObject({
      path: "/v1beta/models/gemini-2.5-flash-image:generateContent",
      key: "test-google",
      body: {
        contents: [{ role: "user", parts: [{ text: "A rye loaf on linen" }] }],
        generationConfig: { responseModalities: ["IMAGE"], imageConfig: { aspectRatio: "16:9" } },
      },
    });
    await provider.generate("A tall loaf", { width: 1080, height: 1920 }, AbortSignal.timeout(10_000));
    expect(aspectRatioOf(fake.received.at(-1)!)).toBe("9:16");
  });

  it("fails (the media service answers MEDIA_PROVIDER_FAILED and refunds) on an error or a filtered answer", async () => {
    for (const failure of ["fail", "filtered"] as const) {
      fake.mode = failure;
      await expect(
        gemini().generate("A rye loaf", { width: 1080, height: 1080 }, AbortSignal.timeout(10_000)),
      ).rejects.toThrow();
    }
    fake.mode = "ok";
  });

  it("refuses a retired Imagen model at start-up instead of failing every request", () => {
    expect(() =>
      createImageProvider({
        IMAGE_PROVIDER: "google",
        IMAGE_API_KEY: "test-google",
        IMAGE_BASE_URL: fake.baseURL,
        IMAGE_MODEL: "imagen-4.0-generate-001",
        PROVIDER_TIMEOUT_MS: 10_000,
      }),
    ).toThrow(/Gemini image model/);
  });
});
