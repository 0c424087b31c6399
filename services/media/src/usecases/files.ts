import { randomBytes } from "node:crypto";
import { appError, badRequest, type Caller } from "@crafter/kit";
import type { MediaDeps } from "../deps";
import { verifySignedUrl } from "../domain/signing";
import { ownAsset } from "./assets";

/** A streamed file: a header (mime, filename, size), then data chunks. */
export interface FileChunk {
  mime?: string;
  filename?: string;
  size?: bigint;
  data?: Uint8Array;
}

/** Largest data chunk of a streamed file, in bytes. */
const CHUNK = 256 * 1024;

async function* rechunk(body: AsyncIterable<Uint8Array>): AsyncGenerator<FileChunk> {
  for await (const piece of body) {
    for (let at = 0; at < piece.length; at += CHUNK) yield { data: piece.subarray(at, at + CHUNK) };
  }
}

/** The original file of the caller's asset, named after the asset. @throws NOT_FOUND */
export async function* downloadAsset(
  deps: MediaDeps,
  caller: Caller,
  input: { id: string },
): AsyncGenerator<FileChunk> {
  const asset = await ownAsset(deps, caller, input.id);
  const object = await deps.objects.get(asset.key, caller.signal);
  const ext = asset.key.slice(asset.key.lastIndexOf(".") + 1);
  const filename = asset.name.toLowerCase().endsWith(`.${ext}`) ? asset.name : `${asset.name}.${ext}`;
  yield { mime: asset.mime, filename, size: BigInt(object.size ?? asset.size) };
  yield* rechunk(object.body);
}

/**
 * The object a signed URL names, for anyone holding the URL until it expires.
 * @throws MEDIA_LINK_EXPIRED (403) for a bad or expired signature, NOT_FOUND when the object is gone.
 */
export async function* readFile(
  deps: MediaDeps,
  caller: Pick<Caller, "signal">,
  input: { key: string; exp: bigint; sig: string },
): AsyncGenerator<FileChunk> {
  const exp = Number(input.exp);
  if (!verifySignedUrl(deps.urls.secret, input.key, exp, input.sig, deps.now())) throw appError("MEDIA_LINK_EXPIRED");
  const object = await deps.objects.get(input.key, caller.signal);
  yield {
    mime: object.mime ?? "application/octet-stream",
    size: object.size === undefined ? undefined : BigInt(object.size),
  };
  yield* rechunk(object.body);
}

/** The path a published asset is served at by the gateway. */
export const PUBLIC_MEDIA_PATH = "/media/public/";

const PUBLIC_ID = /^[A-Za-z0-9_-]{22}$/;

/**
 * Publishes an image asset of the caller at a lasting public URL (a business logo in emails and on
 * the lead form): `/media/public/<id>`, the same for the asset each time. Nothing else of the
 * caller's becomes public.
 * @throws NOT_FOUND (not the caller's asset), CR_ERR_BAD_REQUEST (not an image).
 */
export async function publishAsset(
  deps: MediaDeps,
  caller: Caller,
  input: { id: string },
): Promise<{ publicUrl: string }> {
  const asset = await ownAsset(deps, caller, input.id);
  if (asset.type !== "image") throw badRequest({ id: "Only an image can be published (a logo)" });
  const published = await deps.stores.publicFiles.publish({
    _id: randomBytes(16).toString("base64url"),
    assetId: asset.id,
    userId: asset.userId,
    key: asset.key,
    mime: asset.mime,
    createdAt: deps.now(),
  });
  return { publicUrl: `${PUBLIC_MEDIA_PATH}${published._id}` };
}

/**
 * A published asset's file, for anyone.
 * @throws NOT_FOUND for an id never published (or malformed), or whose asset was deleted.
 */
export async function* readPublicFile(
  deps: MediaDeps,
  caller: Pick<Caller, "signal">,
  input: { publicId: string },
): AsyncGenerator<FileChunk> {
  const published = PUBLIC_ID.test(input.publicId) ? await deps.stores.publicFiles.byId(input.publicId) : null;
  if (!published) throw appError("NOT_FOUND", "No such file.");
  const object = await deps.objects.get(published.key, caller.signal);
  yield {
    mime: published.mime || object.mime || "application/octet-stream",
    size: object.size === undefined ? undefined : BigInt(object.size),
  };
  yield* rechunk(object.body);
}
