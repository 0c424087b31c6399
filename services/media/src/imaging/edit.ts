import { appError, isAppError } from "@crafter/kit";
import type { Operation } from "@crafter/media-language";
import sharp, { type Sharp } from "sharp";
import { escapeXml } from "./xml";

/** Decoded pixels between two operations (sharp applies one pipeline's steps in its own order, not ours). */
export interface Pixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

const SEPIA: [[number, number, number], [number, number, number], [number, number, number]] = [
  [0.393, 0.769, 0.189],
  [0.349, 0.686, 0.168],
  [0.272, 0.534, 0.131],
];

/** Stops sharp's work on one operation after this many seconds (sharp counts whole seconds). */
function fromPixels(p: Pixels, timeoutSeconds?: number): Sharp {
  const image = sharp(p.data, { raw: { width: p.width, height: p.height, channels: p.channels } });
  return timeoutSeconds ? image.timeout({ seconds: timeoutSeconds }) : image;
}

async function toPixels(image: Sharp): Promise<Pixels> {
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as Pixels["channels"] };
}

/** Decodes an image (auto-oriented by its EXIF, which is then dropped), shrunk to fit `maxSide` if given. */
export async function decode(input: Buffer, maxSide?: number): Promise<Pixels> {
  try {
    let image = sharp(input, { failOn: "error", limitInputPixels: 100_000_000 }).rotate();
    if (maxSide) image = image.resize(maxSide, maxSide, { fit: "inside", withoutEnlargement: true });
    return await toPixels(image);
  } catch {
    throw appError("MEDIA_UNREADABLE");
  }
}

/** An SVG layer of `width`×`height` with one line (or several) of text, top-left at x, y. */
function textLayer(op: Extract<Operation, { op: "text" }>, width: number, height: number, scale: number): Buffer {
  const size = Math.max(1, Math.round(op.size * scale));
  const lines = op.text.split(/\r?\n/);
  const family = escapeXml(op.font ?? "Liberation Sans, DejaVu Sans, sans-serif");
  const tspans = lines
    .map(
      (line, i) => `<tspan x="${Math.round(op.x * scale)}" dy="${i === 0 ? 0 : size * 1.2}">${escapeXml(line)}</tspan>`,
    )
    .join("");
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<text y="${Math.round(op.y * scale) + size}" font-size="${size}" font-family="${family}" fill="${op.color}">${tspans}</text></svg>`,
  );
}

/**
 * Applies one operation. `scale` maps the operation's pixel values (given on the original image)
 * onto `pixels` when they are a shrunk copy (previews).
 * @throws CR_ERR_BAD_REQUEST when a crop lies outside the image.
 */
export async function applyOperation(
  pixels: Pixels,
  op: Operation,
  scale = 1,
  timeoutSeconds?: number,
): Promise<Pixels> {
  const px = (value: number) => Math.max(1, Math.round(value * scale));
  const image = fromPixels(pixels, timeoutSeconds);
  switch (op.op) {
    case "crop": {
      const left = Math.round(op.x * scale);
      const top = Math.round(op.y * scale);
      if (left >= pixels.width || top >= pixels.height) {
        throw appError("CR_ERR_BAD_REQUEST", "The crop box lies outside the image.", {
          operations: "crop outside the image",
        });
      }
      const width = Math.min(px(op.width), pixels.width - left);
      const height = Math.min(px(op.height), pixels.height - top);
      return toPixels(image.extract({ left, top, width, height }));
    }
    case "resize":
      return toPixels(image.resize(px(op.width), op.height ? px(op.height) : undefined, { fit: op.fit }));
    case "rotate":
      return toPixels(image.ensureAlpha().rotate(op.degrees, { background: { r: 0, g: 0, b: 0, alpha: 0 } }));
    case "background":
      return toPixels(image.flatten({ background: op.color }));
    case "text": {
      const layer = textLayer(op, pixels.width, pixels.height, scale);
      return toPixels(image.composite([{ input: layer, top: 0, left: 0 }]));
    }
    case "filter": {
      switch (op.name) {
        case "grayscale":
          return toPixels(image.grayscale().toColourspace("srgb"));
        case "sepia":
          return toPixels(image.removeAlpha().recomb(SEPIA));
        case "blur":
          return toPixels(image.blur(Math.max(0.3, ((op.amount ?? 20) / 10) * scale)));
        case "sharpen":
          return toPixels(image.sharpen({ sigma: 1 + (op.amount ?? 50) / 50 }));
        case "brightness":
          return toPixels(image.modulate({ brightness: Math.max(0.01, (op.amount ?? 120) / 100) }));
        case "contrast": {
          const a = (op.amount ?? 120) / 100;
          return toPixels(image.linear(a, 128 * (1 - a)));
        }
      }
    }
  }
}

/**
 * Applies the operations in order, within `budgetMs` when given (checked between operations, and
 * sharp stops an operation that runs past it).
 * @throws CR_ERR_BAD_REQUEST naming the operation sharp refused (never a bare library error);
 * MEDIA_EDIT_TOO_COSTLY (422) past the budget.
 */
export async function applyOperations(
  pixels: Pixels,
  operations: readonly Operation[],
  scale = 1,
  budgetMs?: number,
): Promise<Pixels> {
  const deadline = budgetMs === undefined ? undefined : performance.now() + budgetMs;
  let current = pixels;
  for (const [index, op] of operations.entries()) {
    const left = deadline === undefined ? undefined : deadline - performance.now();
    if (left !== undefined && left <= 0) throw appError("MEDIA_EDIT_TOO_COSTLY");
    try {
      current = await applyOperation(current, op, scale, left === undefined ? undefined : Math.ceil(left / 1000));
    } catch (error) {
      if (isAppError(error)) throw error;
      if (left !== undefined && /timeout/i.test((error as Error).message)) throw appError("MEDIA_EDIT_TOO_COSTLY");
      throw appError("CR_ERR_BAD_REQUEST", `Operation ${index + 1} (${op.op}) cannot be applied to this image.`, {
        [`operations.${index}`]: "Cannot be applied",
      });
    }
  }
  return current;
}

export type OutputFormat = "image/png" | "image/jpeg" | "image/webp";

/** Encodes pixels as `format` (JPEG flattens transparency onto white), shrunk to fit `maxSide` if given. */
export async function encode(pixels: Pixels, format: OutputFormat, maxSide?: number): Promise<Buffer> {
  let image = fromPixels(pixels);
  if (maxSide) image = image.resize(maxSide, maxSide, { fit: "inside", withoutEnlargement: true });
  switch (format) {
    case "image/png":
      return image.png({ compressionLevel: 6 }).toBuffer();
    case "image/jpeg":
      return image.flatten({ background: "#ffffff" }).jpeg({ quality: 88, mozjpeg: false }).toBuffer();
    case "image/webp":
      return image.webp({ quality: 82, effort: 2 }).toBuffer();
  }
}

export function extensionOf(format: OutputFormat): string {
  return format === "image/jpeg" ? "jpg" : format.slice("image/".length);
}
