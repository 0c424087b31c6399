import { appError } from "@crafter/kit";
import { ACCEPTED_MIME, type AssetType, kindOfMime, MAX_BYTES } from "@crafter/media-language";

/** What the bytes are, as file-type detects them from their magic numbers (undefined: unknown). */
export interface Detected {
  mime: string;
  ext: string;
}

/**
 * Checks an upload by its content: the detected type must be one a kind accepts (and of `expect`
 * when given), and the size within that kind's limit. The name and the declared type are not trusted.
 * @returns the kind and the detected MIME type.
 * @throws MEDIA_UNSUPPORTED_TYPE (415) for unknown or refused content, MEDIA_TOO_LARGE (413) above the limit.
 */
export function classifyUpload(
  detected: Detected | undefined,
  size: number,
  expect?: AssetType,
): { type: AssetType; mime: string; ext: string } {
  const type = detected ? kindOfMime(detected.mime) : undefined;
  if (!detected || !type || (expect && type !== expect)) {
    const accepted = expect ? ACCEPTED_MIME[expect].join(", ") : undefined;
    throw appError("MEDIA_UNSUPPORTED_TYPE", accepted ? `Upload one of: ${accepted}.` : undefined);
  }
  if (size > MAX_BYTES[type]) {
    throw appError(
      "MEDIA_TOO_LARGE",
      `This file is too large: ${type} files may be up to ${MAX_BYTES[type] / 1024 / 1024} MB.`,
    );
  }
  return { type, mime: detected.mime, ext: detected.ext };
}

/** A display name from an uploaded file name: no path, no control characters, 1 to 200 characters. */
export function assetName(name: string, fallback: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = [...base]
    .filter((c) => c.charCodeAt(0) > 0x1f && c.charCodeAt(0) !== 0x7f)
    .join("")
    .trim()
    .slice(0, 200);
  return clean.length > 0 ? clean : fallback;
}

/** The lower-case words of a name (accents folded), for token-equality search. */
export function nameTokens(name: string): string[] {
  const words = name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
  return [...new Set(words)].slice(0, 50);
}
