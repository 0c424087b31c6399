/** How many chunks a file of `size` bytes has in chunks of `chunkSize` (the last may be shorter). */
export function chunkCount(size: number, chunkSize: number): number {
  return Math.max(1, Math.ceil(size / chunkSize));
}

/** The exact length chunk `index` must have. */
export function expectedChunkSize(index: number, size: number, chunkSize: number): number {
  const count = chunkCount(size, chunkSize);
  return index < count - 1 ? chunkSize : size - chunkSize * (count - 1);
}

/**
 * Bytes received contiguously from the start (the resume point): chunks 0..n-1 all present.
 * Chunks after a gap do not count, so a client resumes at the first missing one.
 */
export function receivedBytes(chunks: readonly number[], size: number, chunkSize: number): number {
  const have = new Set(chunks);
  let bytes = 0;
  for (let i = 0; i < chunkCount(size, chunkSize) && have.has(i); i++) bytes += expectedChunkSize(i, size, chunkSize);
  return bytes;
}
