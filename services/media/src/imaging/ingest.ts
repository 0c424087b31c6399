import { appError } from "@crafter/kit";
import sharp from "sharp";

/** Widths of the responsive variants (WebP), each made only when the image is wider. */
export const VARIANT_WIDTHS = [640, 1280, 1920] as const;
/** Largest side of the thumbnail (WebP). */
export const THUMBNAIL_SIDE = 320;

export interface Rendition {
  name: string;
  data: Buffer;
  mime: string;
  width: number;
  height: number;
}

export interface IngestedImage {
  /** The re-encoded original: same format for JPEG, PNG and WebP, PNG for the rest; no metadata. */
  original: Rendition;
  thumbnail: Rendition;
  variants: Rendition[];
}

const KEEP: Record<string, "jpeg" | "png" | "webp"> = {
  "image/jpeg": "jpeg",
  "image/png": "png",
  "image/webp": "webp",
};

/**
 * Re-encodes an uploaded image with sharp so nothing but pixels passes (EXIF, ICC, XMP, trailing
 * payloads are dropped; the EXIF orientation is applied first), and makes its thumbnail and variants.
 * @throws MEDIA_UNREADABLE when sharp cannot decode it.
 */
export async function ingestImage(input: Buffer, mime: string): Promise<IngestedImage> {
  try {
    const base = sharp(input, { failOn: "error", limitInputPixels: 100_000_000, animated: false }).rotate();
    const format = KEEP[mime] ?? "png";
    const encoded =
      format === "jpeg"
        ? base.clone().jpeg({ quality: 90 })
        : format === "webp"
          ? base.clone().webp({ quality: 90 })
          : base.clone().png({ compressionLevel: 6 });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    const original: Rendition = {
      name: "original",
      data,
      mime: `image/${format}`,
      width: info.width,
      height: info.height,
    };
    const thumb = await base
      .clone()
      .resize(THUMBNAIL_SIDE, THUMBNAIL_SIDE, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer({ resolveWithObject: true });
    const thumbnail: Rendition = {
      name: "thumbnail",
      data: thumb.data,
      mime: "image/webp",
      width: thumb.info.width,
      height: thumb.info.height,
    };
    const variants: Rendition[] = [];
    for (const width of VARIANT_WIDTHS.filter((w) => w < info.width)) {
      const out = await base.clone().resize(width).webp({ quality: 80 }).toBuffer({ resolveWithObject: true });
      variants.push({
        name: `w${width}`,
        data: out.data,
        mime: "image/webp",
        width: out.info.width,
        height: out.info.height,
      });
    }
    return { original, thumbnail, variants };
  } catch {
    throw appError("MEDIA_UNREADABLE");
  }
}
