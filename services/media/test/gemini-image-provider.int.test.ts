import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import sharp from "sharp";
import { createImageProvider } from "../src/providers/images";
import { type FakeImagen, startFakeImagen } from "./fake-imagen-server";

// Imagen through the Vercel AI SDK's Google provider, against a local server that speaks the Generative
// Language API's `models/<model>:predict` (./fake-imagen-server.ts). The media service's IMAGE_PROVIDER is one per process;
// DALL·E is tested through the whole stack (services/gateway/test/media-providers.int.test.ts), Imagen here.

let fake: FakeImagen;
let png: Buffer;

beforeAll(async () => {
  png = await sharp({ create: { width: 1408, height: 768, channels: 3, background: "#e76f51" } })
    .png()
    .toBuffer();
  fake = await startFakeImagen({ "16:9": png });
});

afterAll(() => fake.close());

const imagen = () =>
  createImageProvider({
    IMAGE_PROVIDER: "google",
    IMAGE_API_KEY: "test-google",
    IMAGE_BASE_URL: fake.baseURL,
    IMAGE_MODEL: undefined,
    PROVIDER_TIMEOUT_MS: 10_000,
  })!;

describe("Imagen", () => {
  it("asks the Imagen model for one image in the closest aspect ratio and returns its bytes", async () => {
    fake.mode = "ok";
    const provider = imagen();
    expect(provider.name).toBe("google");
    const bytes = await provider.generate(
      "A rye loaf on linen",
      { width: 1200, height: 628 },
      AbortSignal.timeout(10_000),
    );
    expect(bytes.equals(png)).toBe(true);
    expect(fake.received.at(-1)).toEqual({
      path: "/v1beta/models/imagen-4.0-generate-001:predict",
      key: "test-google",
      body: { instances: [{ prompt: "A rye loaf on linen" }], parameters: { sampleCount: 1, aspectRatio: "16:9" } },
    });
    await provider.generate("A tall loaf", { width: 1080, height: 1920 }, AbortSignal.timeout(10_000));
    expect(fake.received.at(-1)!.body.parameters.aspectRatio).toBe("9:16");
  });

  it("fails (the media service answers MEDIA_PROVIDER_FAILED and refunds) on an error or a filtered answer", async () => {
    for (const failure of ["fail", "filtered"] as const) {
      fake.mode = failure;
      await expect(
        imagen().generate("A rye loaf", { width: 1080, height: 1080 }, AbortSignal.timeout(10_000)),
      ).rejects.toThrow();
    }
    fake.mode = "ok";
  });
});
