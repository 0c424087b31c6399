/** Layout of the offline composer (pure): which system image, the headline's lines and sizes. */

/** WIDTHxHEIGHT, each 256 to 2048; default the square post. */
export function parseSize(size: string): { width: number; height: number } | undefined {
  if (!size) return { width: 1080, height: 1080 };
  const match = /^(\d{3,4})x(\d{3,4})$/.exec(size.trim());
  if (!match) return undefined;
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (width < 256 || height < 256 || width > 2048 || height > 2048) return undefined;
  return { width, height };
}

/** A stable pick among `ids`: the first whose keywords the prompt names, else one by the prompt's hash. */
export function pickImage(prompt: string, images: ReadonlyArray<{ id: string; keywords: readonly string[] }>): string {
  const words = new Set(
    prompt
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean),
  );
  const named = images.find((image) => image.keywords.some((k) => words.has(k)));
  if (named) return named.id;
  let hash = 0;
  for (const char of prompt) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return images[hash % images.length]!.id;
}

/** The headline: the given one, or the prompt's first sentence, at most 90 characters. */
export function headlineOf(headline: string, prompt: string): string {
  const text = (headline.trim() || prompt.trim().split(/(?<=[.!?])\s/)[0] || "").replace(/\s+/g, " ");
  return text.length > 90 ? `${text.slice(0, 87).trimEnd()}…` : text;
}

/**
 * Greedy word wrap for a width in pixels, estimating a glyph at 0.55 × the font size; the font
 * shrinks until the lines fit `maxLines`.
 */
export function wrapHeadline(
  text: string,
  width: number,
  startSize: number,
  maxLines = 4,
): { lines: string[]; size: number } {
  for (let size = startSize; size >= 18; size = Math.floor(size * 0.9)) {
    const perLine = Math.max(4, Math.floor(width / (size * 0.55)));
    const lines: string[] = [];
    let line = "";
    for (const word of text.split(" ")) {
      const next = line ? `${line} ${word}` : word;
      if (next.length > perLine && line) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    if (line) lines.push(line);
    if (lines.length <= maxLines && lines.every((l) => l.length <= perLine)) return { lines, size };
  }
  return { lines: [text.slice(0, 40)], size: 18 };
}

/** The default brand colours when the business has none: a deep blue and a warm accent. */
export const DEFAULT_COLORS = ["#1f3a5f", "#f4a261"] as const;
