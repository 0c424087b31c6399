/** Small, deterministic text helpers for the offline composers. */

/** FNV-1a, 32 bits: the same inputs always give the same seed. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A seeded pseudo-random generator (mulberry32) in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws items from a bank in a seeded order, without repeats until the bank is used up. */
export class Deck<T> {
  private order: number[] = [];
  private at = 0;
  constructor(
    private readonly items: readonly T[],
    private readonly random: () => number,
  ) {
    this.shuffle();
  }
  private shuffle(): void {
    this.order = this.items.map((_, i) => i);
    for (let i = this.order.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      [this.order[i], this.order[j]] = [this.order[j]!, this.order[i]!];
    }
    this.at = 0;
  }
  draw(): T {
    if (this.at >= this.order.length) this.shuffle();
    return this.items[this.order[this.at++]!]!;
  }
}

const SMALL_WORDS = new Set([
  "a",
  "an",
  "the",
  "and",
  "or",
  "but",
  "for",
  "nor",
  "of",
  "to",
  "in",
  "on",
  "at",
  "by",
  "with",
  "from",
  "as",
  "vs",
]);

/** "how to bake sourdough at home" → "How to Bake Sourdough at Home"; acronyms and brand casing stay. */
export function titleCase(text: string): string {
  const words = text.trim().split(/\s+/);
  return words
    .map((word, i) => {
      if (/[A-Z]/.test(word.slice(1)) || /^[A-Z]/.test(word)) return word;
      const lower = word.toLowerCase();
      if (i > 0 && i < words.length - 1 && SMALL_WORDS.has(lower)) return lower;
      return lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join(" ");
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Lower-cases the first letter unless the word looks like a name or acronym ("UK", "iPhone"). */
export function lowerFirst(text: string): string {
  const first = text.split(/\s+/)[0] ?? "";
  if (/[A-Z]/.test(first.slice(1))) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** ["a", "b", "c"] → "a, b and c". */
export function joinList(items: string[], conjunction = "and"): string {
  if (items.length <= 1) return items[0] ?? "";
  return `${items.slice(0, -1).join(", ")} ${conjunction} ${items[items.length - 1]}`;
}

/** Drops a trailing full stop, so a user's phrase can sit inside a sentence. */
export function phrase(text: string): string {
  return text.trim().replace(/[.!?\s]+$/, "");
}

export function countWords(text: string): number {
  return text
    .replace(/<[^>]*>/g, " ")
    .split(/\s+/)
    .filter(Boolean).length;
}

/** keep → keeping, bake → baking, run → running, tie → tying. */
export function gerund(verb: string): string {
  const lower = verb.toLowerCase();
  if (lower.endsWith("ie")) return `${lower.slice(0, -2)}ying`;
  if (/[^aeiouy]e$/.test(lower) && lower !== "be") return `${lower.slice(0, -1)}ing`;
  if (lower.length <= 4 && /^[^aeiou]*[aeiou][^aeiouwxy]$/.test(lower)) return `${lower}${lower.slice(-1)}ing`;
  return `${lower}ing`;
}

const QUESTION = /^(how|why|what|when|where|which|who|whose|should|can|could|do|does|did|is|are|will|would)\b/i;

/**
 * The topic as a phrase that reads inside a sentence: "How to keep a starter alive" → "keeping a
 * starter alive". A question ("Why does bread collapse?") does not read inside a sentence, so the
 * first keyword stands in for it when there is one.
 */
export function subjectOf(topic: string, keywords: string[]): string {
  const bare = phrase(topic).replace(/\?+$/, "").trim();
  const howTo = bare.match(/^how\s+to\s+(\S+)(.*)$/i);
  if (howTo) return `${gerund(howTo[1]!)}${howTo[2]}`;
  if (QUESTION.test(bare) || bare.endsWith("?") || topic.trim().endsWith("?")) return keywords[0] ?? lowerFirst(bare);
  return lowerFirst(bare);
}
