import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import sharp from "sharp";
import { createImageProvider } from "../src/providers/images";

// Imagen through the Vercel AI SDK's Google provider, against a local server that speaks the Generative
// Language API's `models/<model>:predict` (x-goog-api-key, `instances[].prompt`, `parameters.aspectRatio`,
// answers `predictions[].bytesBase64Encoded`). The media service's IMAGE_PROVIDER is one per process;
// DALL·E is tested through the whole stack (services/gateway/test/media-providers.int.test.ts), Imagen here.

interface Predict {
  path: string;
  key: string | undefined;
  body: { instances: { prompt: string }[]; parameters: { sampleCount: number; aspectRatio?: string } };
}
const received: Predict[] = [];
let mode: "ok" | "fail" | "filtered" = "ok";
let server: Server;
let baseUrl: string;
let png: Buffer;

beforeAll(async () => {
  png = await sharp({ create: { width: 1408, height: 768, channels: 3, background: "#e76f51" } })
    .png()
    .toBuffer();
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith(":predict")) {
        res.writeHead(404).end();
        return;
      }
      received.push({
        path: req.url,
        key: req.headers["x-goog-api-key"] as string | undefined,
        body: JSON.parse(body),
      });
      const json = (status: number, answer: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(answer));
      if (mode === "fail") {
        json(500, { error: { code: 500, message: "Internal error encountered.", status: "INTERNAL" } });
      } else if (mode === "filtered") {
        // Imagen's answer when its safety filter drops every image.
        json(200, { predictions: [{ raiFilteredReason: "Unable to show generated images." }] });
      } else {
        json(200, { predictions: [{ bytesBase64Encoded: png.toString("base64"), mimeType: "image/png" }] });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1beta`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const imagen = () =>
  createImageProvider({
    IMAGE_PROVIDER: "google",
    IMAGE_API_KEY: "test-google",
    IMAGE_BASE_URL: baseUrl,
    IMAGE_MODEL: undefined,
    PROVIDER_TIMEOUT_MS: 10_000,
  })!;

describe("Imagen", () => {
  it("asks the Imagen model for one image in the closest aspect ratio and returns its bytes", async () => {
    mode = "ok";
    const provider = imagen();
    expect(provider.name).toBe("google");
    const bytes = await provider.generate(
      "A rye loaf on linen",
      { width: 1200, height: 628 },
      AbortSignal.timeout(10_000),
    );
    expect(bytes.equals(png)).toBe(true);
    expect(received.at(-1)).toEqual({
      path: "/v1beta/models/imagen-4.0-generate-001:predict",
      key: "test-google",
      body: { instances: [{ prompt: "A rye loaf on linen" }], parameters: { sampleCount: 1, aspectRatio: "16:9" } },
    });
    await provider.generate("A tall loaf", { width: 1080, height: 1920 }, AbortSignal.timeout(10_000));
    expect(received.at(-1)!.body.parameters.aspectRatio).toBe("9:16");
  });

  it("fails (the media service answers MEDIA_PROVIDER_FAILED and refunds) on an error or a filtered answer", async () => {
    for (const failure of ["fail", "filtered"] as const) {
      mode = failure;
      await expect(
        imagen().generate("A rye loaf", { width: 1080, height: 1080 }, AbortSignal.timeout(10_000)),
      ).rejects.toThrow();
    }
    mode = "ok";
  });
});
