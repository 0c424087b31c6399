import { appError, type Caller } from "@crafter/kit";
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
