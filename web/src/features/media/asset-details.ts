/** Human sizes: 512 B, 1.2 MB. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  const units = ["KB", "MB", "GB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** m:ss of a duration in milliseconds. */
export function formatDuration(ms: number | undefined): string {
  if (!ms || ms < 0) return "0:00";
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * The line under an asset card: "1200×800 · 0:42 · 1.2 MB", each part only when known. Stock
 * photos and some generated images come without a byte size (0): no size is shown rather than "0 B".
 */
export function assetDetails(asset: { width?: number; height?: number; durationMs?: number; size: number }): string {
  const parts: string[] = [];
  if (asset.width && asset.height) parts.push(`${asset.width}×${asset.height}`);
  if (asset.durationMs) parts.push(formatDuration(asset.durationMs));
  if (asset.size > 0) parts.push(formatBytes(asset.size));
  return parts.join(" · ");
}
