import type { GenerationRequest } from "./prompt";

/** A project's brand voice (kept by the projects service with the project). */
export interface BrandVoice {
  tone: string;
  wordsToUse: string[];
  wordsToAvoid: string[];
  exampleCopy: string;
}

export function isEmptyVoice(voice: BrandVoice | null | undefined): boolean {
  return (
    !voice ||
    (!voice.tone.trim() &&
      voice.wordsToUse.length === 0 &&
      voice.wordsToAvoid.length === 0 &&
      !voice.exampleCopy.trim())
  );
}

/** The system prompt's brand voice section (empty when the voice says nothing). */
export function brandVoicePrompt(voice: BrandVoice | null | undefined): string {
  if (!voice || isEmptyVoice(voice)) return "";
  const lines = ["Brand voice of this business (follow it in everything you write):"];
  if (voice.tone.trim()) lines.push(`- Tone: ${voice.tone.trim()}`);
  if (voice.wordsToUse.length > 0)
    lines.push(`- Words and phrases to use where they fit: ${voice.wordsToUse.join(", ")}`);
  if (voice.wordsToAvoid.length > 0) {
    lines.push(`- Never use these words or phrases, in any form: ${voice.wordsToAvoid.join(", ")}`);
  }
  if (voice.exampleCopy.trim()) {
    lines.push(
      "- Example copy in this voice (match its style; do not copy it):",
      '"""',
      voice.exampleCopy.trim(),
      '"""',
    );
  }
  return lines.join("\n");
}

/**
 * The request with the project's brand voice: its section appended to the system prompt (every
 * provider call of every workflow), and the words to avoid handed to the offline engine, which
 * cannot follow a tone but must never write an avoided word (`scrubAvoided`).
 */
export function withBrandVoice(request: GenerationRequest, voice: BrandVoice | null | undefined): GenerationRequest {
  const section = brandVoicePrompt(voice);
  if (!section || !voice) return request;
  return {
    ...request,
    system: request.system ? `${request.system}\n\n${section}` : section,
    context: { ...request.context, avoid: voice.wordsToAvoid },
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What stands in for a list item made only of avoided words. */
export const LEFT_OUT = "(left out)";

/**
 * Removes every avoided word or phrase (case-insensitive, whole words, with simple endings such as
 * "-s", "-ed", "-ing") and hashtags holding one from a draft, then tidies the spaces and punctuation
 * left behind: a heading left empty goes, a list item left empty becomes LEFT_OUT (its section may
 * need the item count). Lines in `keep` (the output's own section headings) are left as they are.
 * Pure.
 */
export function scrubAvoided(text: string, avoid: readonly string[] | undefined, keep: readonly string[] = []): string {
  const words = (avoid ?? []).map((word) => word.trim()).filter(Boolean);
  if (words.length === 0) return text;
  // Longest first, so a phrase goes before a word inside it.
  const alternatives = [...words]
    .sort((a, b) => b.length - a.length)
    .map((word) => escapeRegExp(word).replace(/\s+/g, "\\s+"));
  const squashed = words.map((word) => word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")).filter(Boolean);
  // A hashtag spells words together (#SourdoughStarter): one that holds an avoided word goes whole.
  const hashtag = /(?<![\p{L}\p{N}_])#[\p{L}\p{N}_]+/gu;
  const pattern = new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${alternatives.join("|")})(?:s|es|ed|d|ing|ly)?(?![\\p{L}\\p{N}])`,
    "giu",
  );
  return text
    .split("\n")
    .map((line) => {
      if (keep.includes(line.trim())) return line;
      const tagged = line.replace(hashtag, (tag) =>
        squashed.some((word) => tag.toLowerCase().includes(word)) ? "" : tag,
      );
      if (tagged === line && !pattern.test(line)) return line;
      pattern.lastIndex = 0;
      const indent = line.match(/^\s*/)![0];
      const capital = /^\s*(?:[-*]|#{1,6}|\d+\.)?\s*\p{Lu}/u.test(line);
      let scrubbed = tagged
        .replace(pattern, "")
        .replace(/[ \t]{2,}/g, " ")
        .replace(/ ([,.;:!?])/g, "$1")
        .replace(/([,;:])(?=[,.;:!?])/g, "")
        .replace(/^(\s*(?:[-*]|#{1,6}|\d+\.)?\s*)[,.;:]\s*/, "$1")
        .replace(/\s+$/, "");
      scrubbed = indent + scrubbed.trimStart();
      if (capital)
        scrubbed = scrubbed.replace(
          /^(\s*(?:[-*]|#{1,6}|\d+\.)?\s*)(\p{Ll})/u,
          (_, head, letter) => head + letter.toUpperCase(),
        );
      const empty = scrubbed.match(/^(\s*)([-*]|\d+\.)?\s*$/);
      if (!empty) return /^\s*#{1,6}\s*$/.test(scrubbed) ? null : scrubbed;
      // A list item keeps its place (a section may need its count of items), marked as left out.
      return empty[2] ? `${empty[1]}${empty[2]} ${LEFT_OUT}` : null;
    })
    .filter((line): line is string => line !== null)
    .join("\n");
}
