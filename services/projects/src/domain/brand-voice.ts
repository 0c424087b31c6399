/**
 * A project's brand voice: how its business writes. Every workflow adds it to its system prompt
 * (services/workflows domain/brand-voice.ts); the offline engine drops the words to avoid.
 */
export interface BrandVoice {
  tone: string;
  wordsToUse: string[];
  wordsToAvoid: string[];
  exampleCopy: string;
}

export const EMPTY_VOICE: BrandVoice = { tone: "", wordsToUse: [], wordsToAvoid: [], exampleCopy: "" };

export const VOICE_LIMITS = { tone: 300, words: 50, word: 60, exampleCopy: 5000 } as const;

/**
 * Trims and checks a brand voice: tone ≤ 300 characters; at most 50 words or phrases to use and
 * to avoid, each ≤ 60 characters (blanks and repeats dropped, case-insensitively); example copy
 * ≤ 5000 characters. A word may not be both used and avoided.
 * @returns the clean voice, or the problems by field (`tone`, `wordsToUse`, `wordsToAvoid`, `exampleCopy`).
 */
export function checkBrandVoice(
  raw: BrandVoice,
): { ok: true; voice: BrandVoice } | { ok: false; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const words = (list: string[], field: string): string[] => {
    const seen = new Set<string>();
    const out: string[] = [];
    for (const item of list) {
      const word = item.replace(/\s+/g, " ").trim();
      if (!word || seen.has(word.toLowerCase())) continue;
      if (word.length > VOICE_LIMITS.word) fields[field] = `Each entry may be at most ${VOICE_LIMITS.word} characters.`;
      seen.add(word.toLowerCase());
      out.push(word);
    }
    if (out.length > VOICE_LIMITS.words) fields[field] = `At most ${VOICE_LIMITS.words} entries.`;
    return out;
  };
  const tone = raw.tone.trim();
  if (tone.length > VOICE_LIMITS.tone) fields.tone = `At most ${VOICE_LIMITS.tone} characters.`;
  const wordsToUse = words(raw.wordsToUse, "wordsToUse");
  const wordsToAvoid = words(raw.wordsToAvoid, "wordsToAvoid");
  const avoided = new Set(wordsToAvoid.map((word) => word.toLowerCase()));
  const both = wordsToUse.find((word) => avoided.has(word.toLowerCase()));
  if (both) fields.wordsToAvoid = `"${both}" cannot be both used and avoided.`;
  const exampleCopy = raw.exampleCopy.trim();
  if (exampleCopy.length > VOICE_LIMITS.exampleCopy) {
    fields.exampleCopy = `At most ${VOICE_LIMITS.exampleCopy} characters.`;
  }
  if (Object.keys(fields).length > 0) return { ok: false, fields };
  return { ok: true, voice: { tone, wordsToUse, wordsToAvoid, exampleCopy } };
}
