import { appError, type Caller, isDuplicateKey } from "@crafter/kit";
import { ZipArchive } from "archiver";
import { fileTypeFromBuffer } from "file-type";
import type { MediaDeps } from "../deps";
import { pageOf } from "../domain/paging";
import { expiryOf, signedUrl } from "../domain/signing";
import type { Design } from "../store/design.repository";
import { type AssetView, assetView } from "./asset-view";
import { baseName } from "./export-assets";
import type { FileChunk } from "./files";
import { keyedId } from "./generate-speech";
import { storeImage } from "./store-asset";

/** Largest stages JSON, in bytes. */
export const MAX_STAGES_BYTES = 2 * 1024 * 1024;
/** Largest PNG the browser may post with a design, in bytes. */
export const MAX_PREVIEW_BYTES = 15 * 1024 * 1024;

interface DesignInput {
  name: string;
  width: number;
  height: number;
  stagesJson: string;
  previewPng: Uint8Array;
}

function view(deps: MediaDeps, design: Design) {
  const exp = expiryOf(deps.now(), deps.urls.ttlSeconds);
  return {
    id: design.id,
    name: design.name,
    width: design.width,
    height: design.height,
    stagesJson: design.stagesJson,
    createdAt: new Date(design.createdAt).toISOString(),
    updatedAt: new Date(design.updatedAt).toISOString(),
    previewUrl: design.previewKey ? signedUrl(deps.urls.secret, design.previewKey, exp) : "",
  };
}

/** @throws CR_ERR_BAD_REQUEST naming the bad field. */
function checked(input: DesignInput) {
  const name = input.name.trim().slice(0, 200);
  if (!name) throw appError("CR_ERR_BAD_REQUEST", "A name is required.", { name: "Required" });
  for (const side of ["width", "height"] as const) {
    if (!Number.isInteger(input[side]) || input[side] < 16 || input[side] > 8192) {
      throw appError("CR_ERR_BAD_REQUEST", `${side} must be 16 to 8192 pixels.`, { [side]: "16 to 8192" });
    }
  }
  if (Buffer.byteLength(input.stagesJson) > MAX_STAGES_BYTES)
    throw appError("MEDIA_TOO_LARGE", "This design is too large to save.");
  try {
    const stages = JSON.parse(input.stagesJson || "[]");
    if (!Array.isArray(stages)) throw new Error("not an array");
  } catch {
    throw appError("CR_ERR_BAD_REQUEST", "stages must be a JSON array of stages.", { stages: "A JSON array" });
  }
  if (input.previewPng.byteLength > MAX_PREVIEW_BYTES)
    throw appError("MEDIA_TOO_LARGE", "The design's image is too large.");
  return { name, width: input.width, height: input.height, stagesJson: input.stagesJson || "[]" };
}

/** Stores the PNG the browser rendered (checked to be a PNG by its bytes). */
async function storePreview(
  deps: MediaDeps,
  userId: string,
  designId: string,
  png: Uint8Array,
): Promise<string | undefined> {
  if (png.byteLength === 0) return undefined;
  const bytes = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if ((await fileTypeFromBuffer(bytes))?.mime !== "image/png")
    throw appError("MEDIA_UNSUPPORTED_TYPE", "The design's image must be a PNG.");
  const key = `${deps.namespace}/${userId}/designs/${designId}-${deps.now().getTime()}.png`;
  await deps.objects.put(key, bytes, "image/png");
  return key;
}

export async function createDesign(deps: MediaDeps, caller: Caller, input: DesignInput) {
  const fields = checked(input);
  const created = await deps.stores.designs.create({ userId: caller.userId, ...fields });
  const previewKey = await storePreview(deps, caller.userId, created.id, input.previewPng);
  const design = previewKey
    ? await deps.stores.designs.update(caller.userId, { _id: created.id }, { $set: { previewKey } })
    : created;
  return view(deps, design ?? created);
}

async function own(deps: MediaDeps, caller: Caller, id: string): Promise<Design> {
  const design = await deps.stores.designs.findById(caller.userId, id);
  if (!design) throw appError("NOT_FOUND", "No such design.");
  return design;
}

export async function getDesign(deps: MediaDeps, caller: Caller, input: { id: string }) {
  return view(deps, await own(deps, caller, input.id));
}

export async function listDesigns(deps: MediaDeps, caller: Caller, input: { page: number; pageSize: number }) {
  const { page, pageSize } = pageOf(input.page, input.pageSize);
  const found = await deps.stores.designs.page(caller.userId, page, pageSize);
  return {
    result: found.items.map((d) => view(deps, d)),
    count: found.total,
    currentPage: found.page,
    totalPages: found.totalPages,
  };
}

/** Replaces the design (one editor per design: the last save wins). */
export async function updateDesign(deps: MediaDeps, caller: Caller, input: { id: string; design?: DesignInput }) {
  if (!input.design) throw appError("CR_ERR_BAD_REQUEST", "design is required.", { design: "Required" });
  const existing = await own(deps, caller, input.id);
  const fields = checked(input.design);
  const previewKey = await storePreview(deps, caller.userId, existing.id, input.design.previewPng);
  const updated = await deps.stores.designs.update(
    caller.userId,
    { _id: existing.id },
    { $set: { ...fields, ...(previewKey ? { previewKey } : {}) } },
  );
  if (!updated) throw appError("NOT_FOUND", "No such design.");
  if (previewKey && existing.previewKey) await deps.objects.delete([existing.previewKey]).catch(() => undefined);
  return view(deps, updated);
}

export async function deleteDesign(deps: MediaDeps, caller: Caller, input: { id: string }) {
  const existing = await own(deps, caller, input.id);
  await deps.stores.designs.delete(caller.userId, { _id: existing.id });
  if (existing.previewKey) await deps.objects.delete([existing.previewKey]).catch(() => undefined);
  return {};
}

/**
 * The design as PNG (the image the browser last rendered and saved with it) or as a ZIP of that PNG
 * and the design's JSON. @throws CONFLICT when no image was saved yet.
 */
export async function* exportDesign(
  deps: MediaDeps,
  caller: Caller,
  input: { id: string; format: string },
): AsyncGenerator<FileChunk> {
  const format = input.format || "image/png";
  if (format !== "image/png" && format !== "ZIP")
    throw appError("CR_ERR_BAD_REQUEST", "format must be image/png or ZIP.", { format: "image/png or ZIP" });
  const design = await own(deps, caller, input.id);
  if (!design.previewKey) throw appError("CONFLICT", "Save the design from the designer once before exporting it.");
  const png = await deps.objects.getBytes(design.previewKey, caller.signal);
  const stem = baseName(design.name, "design");
  if (format === "image/png") {
    yield { mime: "image/png", filename: `${stem}.png`, size: BigInt(png.length) };
    yield { data: png };
    return;
  }
  const archive = new ZipArchive({ zlib: { level: 6 } });
  archive.append(png, { name: `${stem}.png` });
  archive.append(
    JSON.stringify(
      { name: design.name, width: design.width, height: design.height, stages: JSON.parse(design.stagesJson) },
      null,
      2,
    ),
    {
      name: `${stem}.json`,
    },
  );
  void archive.finalize();
  yield { mime: "application/zip", filename: `${stem}.zip` };
  for await (const chunk of archive) yield { data: chunk as Buffer };
}

/**
 * The design's last saved PNG as an image asset of source "designer", named as the design. Keyed by
 * the PNG's object key: asked again before the design is saved with a new PNG, it answers the same
 * asset (a retried craft step stores no copy). @throws NOT_FOUND, CONFLICT when no PNG was saved yet.
 */
export async function storeDesignAsset(deps: MediaDeps, caller: Caller, input: { id: string }): Promise<AssetView> {
  const design = await own(deps, caller, input.id);
  if (!design.previewKey) throw appError("CONFLICT", "Save the design from the designer once before using its image.");
  const png = await deps.objects.getBytes(design.previewKey, caller.signal);
  const meta = { userId: caller.userId, projectId: "", source: "designer" as const, name: design.name };
  try {
    return assetView(
      deps,
      await storeImage(deps, { ...meta, id: keyedId(caller.userId, design.previewKey) }, png, "image/png"),
    );
  } catch (error) {
    // The keyed asset was deleted by the user since: store the image afresh.
    if (!isDuplicateKey(error)) throw error;
    return assetView(deps, await storeImage(deps, meta, png, "image/png"));
  }
}
