/** The kinds of asset. */
export const ASSET_TYPES = ["image", "video", "audio"] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

/** Where an asset came from (the spec's sources, `composed` for the offline image composer, `shopify` for a store's product images). */
export const ASSET_SOURCES = [
  "direct",
  "unsplash",
  "AI",
  "system",
  "designer",
  "email-template",
  "system-email-template",
  "composed",
  "shopify",
] as const;
export type AssetSource = (typeof ASSET_SOURCES)[number];

const MB = 1024 * 1024;
/** Largest upload per kind, in bytes: images and audio through one request, video in chunks. */
export const MAX_BYTES: Record<AssetType, number> = { image: 15 * MB, audio: 50 * MB, video: 2048 * MB };
/** Bytes per chunk of a video upload (the last chunk may be shorter). */
export const VIDEO_CHUNK_BYTES = 5 * MB;

/** The MIME types accepted per kind, as detected from the bytes (not the name or the header). */
export const ACCEPTED_MIME: Record<AssetType, readonly string[]> = {
  image: ["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif", "image/tiff", "image/heic", "image/heif"],
  audio: [
    "audio/mpeg",
    "audio/wav",
    "audio/ogg",
    "audio/opus",
    "audio/aac",
    "audio/x-m4a",
    "audio/mp4",
    "audio/flac",
    "audio/webm",
  ],
  video: ["video/mp4", "video/webm", "video/quicktime", "video/x-matroska", "video/ogg"],
};

/** The kind of a detected MIME type, or undefined when no kind accepts it. */
export function kindOfMime(mime: string): AssetType | undefined {
  for (const type of ASSET_TYPES) if (ACCEPTED_MIME[type].includes(mime)) return type;
  return undefined;
}
