import type { Pixels } from "./edit";

/**
 * The decoded, shrunk copies edit previews start from, by asset id (least recently used out).
 * Decoding a 12-megapixel JPEG costs more than the edits themselves, and a user previews one image
 * many times in a row. Bounded by bytes, so memory stays flat whatever is previewed.
 */
export class PixelCache {
  private readonly entries = new Map<string, Pixels>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): Pixels | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: Pixels): void {
    if (value.data.length > this.maxBytes) return;
    this.delete(key);
    this.entries.set(key, value);
    this.bytes += value.data.length;
    for (const [oldest, pixels] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= pixels.data.length;
    }
  }

  delete(key: string): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.data.length;
    }
  }
}
