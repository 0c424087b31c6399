import { appError, type Caller } from "@crafter/kit";
import { EXPORT_DEFAULTS, EXPORT_FORMATS, type ExportFormat } from "@crafter/media-language";
import { ZipArchive } from "archiver";
import type { MediaDeps } from "../deps";
import { decode, encode, extensionOf } from "../imaging/edit";
import type { Asset } from "../store/asset.repository";
import { ownAsset } from "./assets";
import type { FileChunk } from "./files";

/** At most this many images in one export. */
export const MAX_EXPORT_ASSETS = 50;

/** `name` without its extension, safe as a file name (1 to 100 characters). */
export function baseName(name: string, fallback: string): string {
  const stem = name
    .replace(/\.[A-Za-z0-9]{1,5}$/, "")
    .replace(/[^\p{L}\p{N} _.-]+/gu, "_")
    .trim()
    .slice(0, 100);
  return stem || fallback;
}

/** Unique entry names in a ZIP: `a.png`, `a (2).png`… */
function entryName(used: Map<string, number>, stem: string, ext: string): string {
  const n = (used.get(stem) ?? 0) + 1;
  used.set(stem, n);
  return n === 1 ? `${stem}.${ext}` : `${stem} (${n}).${ext}`;
}

/**
 * Exports images converted to `format`: one file (`type: "single"`, the first asset) or a ZIP of
 * all, streamed as archiver writes it (entries stored: the images are compressed already). The
 * spec's defaults: image/png, image.png, ZIP.
 * @throws NOT_FOUND (an asset that is not the caller's), CR_ERR_BAD_REQUEST (not images, bad format).
 */
export async function* exportAssets(
  deps: MediaDeps,
  caller: Caller,
  input: { assetIds: string[]; format: string; filename: string; type: string },
): AsyncGenerator<FileChunk> {
  const format = (input.format || EXPORT_DEFAULTS.format) as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) {
    throw appError("CR_ERR_BAD_REQUEST", `format must be one of ${EXPORT_FORMATS.join(", ")}.`, {
      format: "Unsupported",
    });
  }
  const type = input.type || EXPORT_DEFAULTS.type;
  if (type !== "ZIP" && type !== "single")
    throw appError("CR_ERR_BAD_REQUEST", "type must be ZIP or single.", { type: "ZIP or single" });
  const ids = [...new Set(input.assetIds)];
  if (ids.length === 0 || ids.length > MAX_EXPORT_ASSETS) {
    throw appError("CR_ERR_BAD_REQUEST", `Export 1 to ${MAX_EXPORT_ASSETS} images.`, {
      assetIds: `1 to ${MAX_EXPORT_ASSETS}`,
    });
  }
  const assets: Asset[] = [];
  for (const id of ids) {
    const asset = await ownAsset(deps, caller, id);
    if (asset.type !== "image")
      throw appError("CR_ERR_BAD_REQUEST", "Only images can be exported.", { assetIds: "Not an image" });
    assets.push(asset);
  }
  const ext = extensionOf(format);
  const convert = async (asset: Asset) =>
    encode(await decode(await deps.objects.getBytes(asset.key, caller.signal)), format);
  const stem = baseName(input.filename || EXPORT_DEFAULTS.filename, "image");

  if (type === "single") {
    const bytes = await convert(assets[0]!);
    yield { mime: format, filename: `${stem}.${ext}`, size: BigInt(bytes.length) };
    yield { data: bytes };
    return;
  }

  const archive = new ZipArchive({ store: true });
  const used = new Map<string, number>();
  const fill = (async () => {
    for (const asset of assets) {
      archive.append(await convert(asset), { name: entryName(used, baseName(asset.name, "image"), ext) });
    }
    await archive.finalize();
  })().catch((error: unknown) => archive.destroy(error as Error));
  yield { mime: "application/zip", filename: `${stem}.zip` };
  for await (const chunk of archive) yield { data: chunk as Buffer };
  await fill;
}
