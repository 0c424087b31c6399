import { appError } from "@crafter/kit";
import type { Response } from "express";

/** One message of a streamed file (MediaService's FileChunk): a header first, then data. */
export interface FileChunkLike {
  mime: string;
  filename: string;
  size: bigint;
  data: Uint8Array;
}

/** `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266), the plain name ASCII-only. */
export function contentDisposition(filename: string, kind: "attachment" | "inline" = "attachment"): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Sends a streamed file: waits for its header (so an error before it is still the JSON envelope),
 * then writes the data with backpressure. An error after the first byte can only cut the response.
 */
export async function sendFile(
  res: Response,
  stream: AsyncIterable<FileChunkLike>,
  options: { disposition?: "attachment" | "inline"; cache?: string } = {},
): Promise<void> {
  const iterator = stream[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw appError("NOT_FOUND", "No such file.");
  const header = first.value;
  res.status(200);
  res.setHeader("content-type", header.mime || "application/octet-stream");
  if (header.size > 0n) res.setHeader("content-length", header.size.toString());
  if (options.disposition)
    res.setHeader("content-disposition", contentDisposition(header.filename || "file", options.disposition));
  res.setHeader("cache-control", options.cache ?? "no-store");
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      if (next.value.data.length === 0) continue;
      if (!res.write(next.value.data)) await new Promise((resolve) => res.once("drain", resolve));
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
  }
}

/** Cancels the downstream call when the client goes away before the answer is written. */
export function abortOnClose(res: Response): AbortController {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller;
}
