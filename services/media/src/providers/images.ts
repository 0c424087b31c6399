import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { generateImage } from "ai";
import type { Config } from "../config";

/** A configured image model (DALL·E or a Gemini image model through the Vercel AI SDK). */
export interface ImageProvider {
  name: "openai" | "google";
  /** The generated image's bytes (PNG or JPEG as the provider sends them). @throws on provider failure */
  generate(prompt: string, size: { width: number; height: number }, signal: AbortSignal): Promise<Buffer>;
}

/** DALL·E 3's sizes: the one closest to the wanted aspect ratio. */
export function openAiSize(width: number, height: number): `${number}x${number}` {
  const ratio = width / height;
  if (ratio > 1.25) return "1792x1024";
  if (ratio < 0.8) return "1024x1792";
  return "1024x1024";
}

const GOOGLE_RATIOS = [
  ["1:1", 1],
  ["4:3", 4 / 3],
  ["3:4", 3 / 4],
  ["16:9", 16 / 9],
  ["9:16", 9 / 16],
] as const;

/** The aspect ratios Gemini image models take: the closest to width/height. */
export function googleAspectRatio(width: number, height: number): `${number}:${number}` {
  const ratio = width / height;
  let best: (typeof GOOGLE_RATIOS)[number] = GOOGLE_RATIOS[0];
  for (const entry of GOOGLE_RATIOS)
    if (Math.abs(Math.log(entry[1] / ratio)) < Math.abs(Math.log(best[1] / ratio))) best = entry;
  return best[0];
}

/** The provider IMAGE_PROVIDER names, or undefined for the offline composer. */
export function createImageProvider(
  config: Pick<Config, "IMAGE_PROVIDER" | "IMAGE_BASE_URL" | "IMAGE_API_KEY" | "IMAGE_MODEL" | "PROVIDER_TIMEOUT_MS">,
): ImageProvider | undefined {
  const provider = config.IMAGE_PROVIDER;
  if (!provider || provider === "offline") return undefined;
  if (!config.IMAGE_API_KEY) throw new Error(`IMAGE_API_KEY is required with IMAGE_PROVIDER=${provider}`);
  const timeout = (signal: AbortSignal) => AbortSignal.any([signal, AbortSignal.timeout(config.PROVIDER_TIMEOUT_MS)]);
  if (provider === "openai") {
    const openai = createOpenAI({ apiKey: config.IMAGE_API_KEY, baseURL: config.IMAGE_BASE_URL });
    const model = openai.image(config.IMAGE_MODEL ?? "dall-e-3");
    return {
      name: "openai",
      async generate(prompt, size, signal) {
        const { image } = await generateImage({
          model,
          prompt,
          size: openAiSize(size.width, size.height),
          maxRetries: 1,
          abortSignal: timeout(signal),
        });
        return Buffer.from(image.uint8Array);
      },
    };
  }
  const modelId = config.IMAGE_MODEL ?? "gemini-2.5-flash-image";
  // Google retired Imagen from the Generative Language API; the SDK takes Gemini image models only.
  if (!modelId.startsWith("gemini-"))
    throw new Error(`IMAGE_MODEL=${modelId}: with IMAGE_PROVIDER=google, use a Gemini image model (gemini-…)`);
  const google = createGoogleGenerativeAI({ apiKey: config.IMAGE_API_KEY, baseURL: config.IMAGE_BASE_URL });
  const model = google.image(modelId);
  return {
    name: "google",
    async generate(prompt, size, signal) {
      const { image } = await generateImage({
        model,
        prompt,
        aspectRatio: googleAspectRatio(size.width, size.height),
        maxRetries: 1,
        abortSignal: timeout(signal),
      });
      return Buffer.from(image.uint8Array);
    },
  };
}
