import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One `:generateContent` request as the fake received it. */
export interface GenerateContent {
  /** e.g. `/v1beta/models/gemini-2.5-flash-image:generateContent` */
  path: string;
  /** The `x-goog-api-key` header. */
  key: string | undefined;
  body: {
    contents: { role: string; parts: { text?: string }[] }[];
    generationConfig?: { responseModalities?: string[]; imageConfig?: { aspectRatio?: string } };
  };
}

/**
 * A local server speaking Google's Generative Language API for Gemini image models, for tests:
 * `POST <base>/models/<model>:generateContent` (x-goog-api-key, the prompt as the user's text part,
 * `generationConfig.responseModalities: ["IMAGE"]` and `generationConfig.imageConfig.aspectRatio`)
 * answers one candidate whose part is `inlineData` (base64 PNG). `mode` picks the answer: `ok` the
 * PNG for the asked aspect ratio, `fail` a 500 INTERNAL error, `filtered` Gemini's answer when its
 * safety filter drops the image (finishReason IMAGE_SAFETY, no parts). Anything else is 404.
 */
export interface FakeGeminiImage {
  /** e.g. http://127.0.0.1:1234/v1beta (the provider's IMAGE_BASE_URL). */
  baseURL: string;
  /** Every `:generateContent` request, in order. */
  received: GenerateContent[];
  mode: "ok" | "fail" | "filtered";
  close(): Promise<void>;
}

/** The prompt text of a received request (its first text part). */
export const promptOf = (request: GenerateContent): string | undefined =>
  request.body.contents[0]?.parts.find((part) => typeof part.text === "string")?.text;

/** The aspect ratio a received request asked for. */
export const aspectRatioOf = (request: GenerateContent): string | undefined =>
  request.body.generationConfig?.imageConfig?.aspectRatio;

/**
 * Starts the fake on 127.0.0.1:`port` (0 = any free port). `images` maps an aspect ratio ("16:9")
 * to the PNG answered for it; a request without one, or with one not in the map, gets `images["1:1"]`,
 * else the first image given.
 */
export async function startFakeGeminiImage(images: Record<string, Buffer>, port = 0): Promise<FakeGeminiImage> {
  const fallback = images["1:1"] ?? Object.values(images)[0]!;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith(":generateContent")) {
        res.writeHead(404).end();
        return;
      }
      const request: GenerateContent = {
        path: req.url,
        key: req.headers["x-goog-api-key"] as string | undefined,
        body: JSON.parse(body),
      };
      fake.received.push(request);
      const json = (status: number, answer: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(answer));
      const usageMetadata = { promptTokenCount: 8, candidatesTokenCount: 1290, totalTokenCount: 1298 };
      if (fake.mode === "fail") {
        json(500, { error: { code: 500, message: "Internal error encountered.", status: "INTERNAL" } });
      } else if (fake.mode === "filtered") {
        json(200, {
          candidates: [{ content: { role: "model", parts: [] }, finishReason: "IMAGE_SAFETY" }],
          usageMetadata,
        });
      } else {
        const png = images[aspectRatioOf(request) ?? "1:1"] ?? fallback;
        json(200, {
          candidates: [
            {
              content: {
                role: "model",
                parts: [{ inlineData: { mimeType: "image/png", data: png.toString("base64") } }],
              },
              finishReason: "STOP",
            },
          ],
          usageMetadata,
        });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const fake: FakeGeminiImage = {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1beta`,
    received: [],
    mode: "ok",
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}
