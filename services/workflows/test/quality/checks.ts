/**
 * The offline engine's quality rules, as pure checks over what it wrote. Each returns
 * the problems it found (empty = the rule holds), worded for the report.
 */

/** Function words a whole phrase does not end on ("…repair or it", "…for the"). */
const DANGLING = new Set([
  "a",
  "an",
  "and",
  "at",
  "by",
  "for",
  "from",
  "in",
  "into",
  "it",
  "of",
  "on",
  "or",
  "our",
  "the",
  "to",
  "with",
  "your",
  "&",
]);

export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#39;|’|'/g, "")
    .split(/[^\p{L}\p{N}&£%]+/u)
    .filter(Boolean);
}

export function plain(html: string): string {
  return html
    .replace(/<\/(h[1-6]|p|li)>/g, ". ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ")
    .trim();
}

/** Every 3-word phrase of the inputs' texts that occurs more than `max` times in `text`. */
export function repeatedInputPhrases(text: string, inputs: string[], max = 3): string[] {
  const phrases = new Set<string>();
  for (const input of inputs) {
    const w = words(input);
    for (let i = 0; i + 3 <= w.length; i++) phrases.add(w.slice(i, i + 3).join(" "));
  }
  const body = words(text);
  const counts = new Map<string, number>();
  for (let i = 0; i + 3 <= body.length; i++) {
    const phrase = body.slice(i, i + 3).join(" ");
    if (phrases.has(phrase)) counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
  }
  return [...counts].filter(([, n]) => n > max).map(([phrase, n]) => `"${phrase}" ${n} times`);
}

/** Sentences (of at least 4 words) that occur more than once. */
export function repeatedSentences(text: string): string[] {
  const seen = new Map<string, number>();
  for (const sentence of plain(text).split(/(?<=[.!?])\s+/)) {
    const key = words(sentence).join(" ");
    if (key.split(" ").length < 4) continue;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([sentence, n]) => `"${sentence}" ${n} times`);
}

/**
 * The blog post answers its question: some heading (h1–h3) carries the question's key words, and
 * the post states at least one of the inputs' facts under a heading (not only in passing).
 */
export function unansweredQuestion(html: string, topic: string, facts: string[]): string[] {
  const stop = new Set(["how", "often", "should", "you", "do", "your", "the", "is", "when", "a", "what", "why"]);
  const key = words(topic).filter((w) => !stop.has(w) && w.length > 2);
  const headings = [...html.matchAll(/<h[1-3][^>]*>([\s\S]*?)<\/h[1-3]>/g)].map((m) => words(m[1] ?? ""));
  const problems: string[] = [];
  if (!headings.some((heading) => key.filter((w) => heading.some((h) => h.startsWith(w.slice(0, 5)))).length >= 2)) {
    problems.push(`no heading names the question (${key.join(", ")})`);
  }
  const sections = html.split(/<h[23][^>]*>/).slice(1);
  const text = plain(sections.join(" ")).toLowerCase();
  const stated = facts.filter((fact) => text.includes(fact.toLowerCase()));
  if (stated.length === 0) problems.push(`no section states a fact of the inputs (${facts.join(" / ")})`);
  return problems;
}

/**
 * An item over its limit, or one that ends cut: on a function word, or on a word that is not a
 * whole word of the inputs or of the drafts (a cut word such as "repa" is neither).
 */
export function cutOrOverLimit(item: string, max: number | undefined, vocabulary: Set<string>): string[] {
  const problems: string[] = [];
  if (max !== undefined && item.length > max) problems.push(`${item.length} > ${max}: "${item}"`);
  const last = words(item).at(-1);
  if (last && DANGLING.has(last)) problems.push(`ends on "${last}": "${item}"`);
  else if (last && !vocabulary.has(last) && !/^\d/.test(last)) problems.push(`ends on a cut word "${last}": "${item}"`);
  return problems;
}
