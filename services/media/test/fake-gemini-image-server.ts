import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One `:predict` request as the fake received it. */
export interface Predict {
  /** e.g. `/v1beta/models/imagen-4.0-generate-001:predict` */
  path: string;
  /** The `x-goog-api-key` header. */
  key: string | undefined;
  body: { instances: { prompt: string }[]; parameters: { sampleCount: number; aspectRatio?: string } };
}

/**
 * A local server speaking Google's Generative Language API for Imagen, for tests:
 * `POST <base>/models/<model>:predict` (x-goog-api-key, `instances[].prompt`, `parameters.aspectRatio`)
 * answers `predictions[].bytesBase64Encoded`. `mode` picks the answer: `ok` the PNG for the asked
 * aspect ratio, `fail` a 500 INTERNAL error, `filtered` Imagen's answer when its safety filter drops
 * every image. Anything else is 404.
 */
export interface FakeImagen {
  /** e.g. http://127.0.0.1:1234/v1beta (the provider's IMAGE_BASE_URL). */
  baseURL: string;
  /** Every `:predict` request, in order. */
  received: Predict[];
  mode: "ok" | "fail" | "filtered";
  close(): Promise<void>;
}

/**
 * Starts the fake on 127.0.0.1:`port` (0 = any free port). `images` maps an aspect ratio ("16:9")
 * to the PNG answered for it; a request without one, or with one not in the map, gets `images["1:1"]`,
 * else the first image given.
 */
export async function startFakeImagen(images: Record<string, Buffer>, port = 0): Promise<FakeImagen> {
  const fallback = images["1:1"] ?? Object.values(images)[0]!;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith(":predict")) {
        res.writeHead(404).end();
        return;
      }
      const predict: Predict = {
        path: req.url,
        key: req.headers["x-goog-api-key"] as string | undefined,
        body: JSON.parse(body),
      };
      fake.received.push(predict);
      const json = (status: number, answer: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(answer));
      if (fake.mode === "fail") {
        json(500, { error: { code: 500, message: "Internal error encountered.", status: "INTERNAL" } });
      } else if (fake.mode === "filtered") {
        json(200, { predictions: [{ raiFilteredReason: "Unable to show generated images." }] });
      } else {
        const png = images[predict.body.parameters.aspectRatio ?? "1:1"] ?? fallback;
        json(200, { predictions: [{ bytesBase64Encoded: png.toString("base64"), mimeType: "image/png" }] });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const fake: FakeImagen = {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1beta`,
    received: [],
    mode: "ok",
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}
