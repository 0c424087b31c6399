import { randomUUID } from "node:crypto";
import { appError, type Caller } from "@crafter/kit";
import { ACCEPTED_MIME, MAX_BYTES, VIDEO_CHUNK_BYTES } from "@crafter/media-language";
import { fileTypeFromBuffer } from "file-type";
import type { MediaDeps } from "../deps";
import { chunkCount, expectedChunkSize, receivedBytes } from "../domain/chunks";
import { assetName, classifyUpload } from "../domain/upload";
import type { Upload } from "../store/upload.repository";
import { type AssetView, assetView } from "./asset-view";
import { objectKey, storeFile } from "./store-asset";

/** An unfinished upload is refused after this long (its parts are aborted by then). */
const UPLOAD_TTL_MS = 24 * 3600 * 1000;

async function ownUpload(deps: MediaDeps, caller: Caller, id: string): Promise<Upload> {
  const upload = await deps.stores.uploads.findById(caller.userId, id);
  if (!upload || upload.expiresAt.getTime() < deps.now().getTime()) throw appError("NOT_FOUND", "No such upload.");
  return upload;
}

/**
 * Starts a chunked video upload (an S3 multipart upload); chunks are `chunkSize` bytes, the last
 * one shorter. @throws MEDIA_TOO_LARGE, MEDIA_UNSUPPORTED_TYPE (declared type not a video).
 */
export async function startUpload(
  deps: MediaDeps,
  caller: Caller,
  input: { name: string; size: bigint; mime: string; projectId: string },
): Promise<{ uploadId: string; chunkSize: number }> {
  const size = Number(input.size);
  if (!Number.isSafeInteger(size) || size < 1)
    throw appError("CR_ERR_BAD_REQUEST", "size must be a positive number of bytes.", { size: "Positive" });
  if (size > MAX_BYTES.video)
    throw appError("MEDIA_TOO_LARGE", `Videos may be up to ${MAX_BYTES.video / 1024 / 1024} MB.`);
  if (!ACCEPTED_MIME.video.includes(input.mime))
    throw appError("MEDIA_UNSUPPORTED_TYPE", `Upload one of: ${ACCEPTED_MIME.video.join(", ")}.`);
  const id = randomUUID();
  const key = objectKey(deps, caller.userId, id, "original.video");
  const s3UploadId = await deps.objects.startMultipart(key, input.mime);
  await deps.stores.uploads.create({
    _id: id,
    userId: caller.userId,
    projectId: input.projectId,
    name: assetName(input.name, "video"),
    mime: input.mime,
    size,
    chunkSize: VIDEO_CHUNK_BYTES,
    key,
    s3UploadId,
    expiresAt: new Date(deps.now().getTime() + UPLOAD_TTL_MS),
  });
  return { uploadId: id, chunkSize: VIDEO_CHUNK_BYTES };
}

async function state(deps: MediaDeps, upload: Upload) {
  // A completed multipart upload has no parts to list any more (S3 answers NoSuchUpload).
  const chunks = upload.assetId
    ? Array.from({ length: chunkCount(upload.size, upload.chunkSize) }, (_, i) => i)
    : (await deps.objects.listParts(upload.key, upload.s3UploadId)).map((p) => p.partNumber - 1);
  return {
    uploadId: upload.id,
    received: BigInt(receivedBytes(chunks, upload.size, upload.chunkSize)),
    size: BigInt(upload.size),
    chunkSize: upload.chunkSize,
    chunks,
    complete: upload.assetId !== undefined,
  };
}

/**
 * Stores chunk `index` (0-based; sending one again replaces it). The first chunk's bytes must be a
 * video (file-type). @throws CR_ERR_BAD_REQUEST (index or length wrong), MEDIA_UNSUPPORTED_TYPE.
 */
export async function putUploadChunk(
  deps: MediaDeps,
  caller: Caller,
  input: { uploadId: string; index: number; data: Uint8Array },
) {
  const upload = await ownUpload(deps, caller, input.uploadId);
  if (upload.assetId) throw appError("CONFLICT", "This upload is complete.");
  const count = chunkCount(upload.size, upload.chunkSize);
  if (!Number.isInteger(input.index) || input.index < 0 || input.index >= count) {
    throw appError("CR_ERR_BAD_REQUEST", `index must be 0 to ${count - 1}.`, { index: `0 to ${count - 1}` });
  }
  const expected = expectedChunkSize(input.index, upload.size, upload.chunkSize);
  if (input.data.byteLength !== expected) {
    throw appError("CR_ERR_BAD_REQUEST", `Chunk ${input.index} must be ${expected} bytes.`, {
      body: `${expected} bytes`,
    });
  }
  const bytes = Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength);
  if (input.index === 0) {
    const kind = classifyUpload(await fileTypeFromBuffer(bytes), upload.size, "video");
    await deps.stores.uploads.set(caller.userId, upload.id, { detectedMime: kind.mime });
  }
  await deps.objects.putPart(upload.key, upload.s3UploadId, input.index + 1, bytes);
  return state(deps, upload);
}

/** What arrived so far (the client resumes from the first missing chunk). */
export async function getUpload(deps: MediaDeps, caller: Caller, input: { uploadId: string }) {
  return state(deps, await ownUpload(deps, caller, input.uploadId));
}

/**
 * Joins the chunks into the video and stores its asset (AssetCreated). Completing twice gives the
 * same asset. @throws CONFLICT while chunks are missing.
 */
export async function completeUpload(deps: MediaDeps, caller: Caller, input: { uploadId: string }): Promise<AssetView> {
  const upload = await ownUpload(deps, caller, input.uploadId);
  if (upload.assetId) {
    const done = await deps.stores.assets.live(caller.userId, upload.assetId);
    if (done) return assetView(deps, done);
  }
  const parts = await deps.objects.listParts(upload.key, upload.s3UploadId);
  const count = chunkCount(upload.size, upload.chunkSize);
  if (
    parts.length !== count ||
    receivedBytes(
      parts.map((p) => p.partNumber - 1),
      upload.size,
      upload.chunkSize,
    ) !== upload.size
  ) {
    throw appError("CONFLICT", `${count - parts.length} chunk(s) of this upload are missing.`);
  }
  const fresh = await deps.stores.uploads.findById(caller.userId, upload.id);
  const mime = fresh?.detectedMime ?? upload.mime;
  await deps.objects.completeMultipart(upload.key, upload.s3UploadId, parts);
  const asset = await storeFile(
    deps,
    {
      userId: caller.userId,
      projectId: upload.projectId,
      source: "direct",
      name: upload.name,
      type: "video",
      mime,
      ext: "video",
      id: upload.id,
    },
    { key: upload.key, size: upload.size },
  );
  await deps.stores.uploads.set(caller.userId, upload.id, { assetId: asset.id });
  return assetView(deps, asset);
}
