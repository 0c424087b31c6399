/**
 * The lead assistant's pure logic (unit-tested): the transcript cap, finding a visitor's name and
 * email in their messages, the offline answer from the business profile's own text, and the prompt
 * for an AI provider.
 */

/** The spec's assistant chat cap: no more messages once the transcript's text passes it. */
export const MAX_TRANSCRIPT_CHARS = 163_840;
/** One visitor message at most (the widget's input has the same limit). */
export const MAX_MESSAGE_CHARS = 2000;

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
const NAME_WORD = "[\\p{Lu}\\p{Ll}][\\p{L}'’-]*";
const NAME_AFTER = new RegExp(
  `(?:my name is|my name's|i am|i'm|im|this is|name:|call me)\\s+(${NAME_WORD}(?:\\s+${NAME_WORD}){0,3})`,
  "iu",
);
const NOT_NAMES = new Set([
  "interested",
  "looking",
  "here",
  "just",
  "not",
  "a",
  "an",
  "the",
  "from",
  "with",
  "good",
  "fine",
]);

/** What the visitor said about themselves so far. */
export interface VisitorDetails {
  name?: string;
  email?: string;
}

/**
 * The name and email a message gives ("I'm Jane Doe, jane@example.com", "jane@example.com",
 * "my name is Jane"), merged over what earlier messages gave.
 */
export function visitorDetails(message: string, known: VisitorDetails = {}): VisitorDetails {
  const out: VisitorDetails = { ...known };
  const email = EMAIL.exec(message)?.[0];
  if (email && email.length <= 254) out.email = email.toLowerCase();
  const named = NAME_AFTER.exec(message)?.[1];
  let name = named
    ?.split(/\s+/)
    .filter((word, i) => i === 0 || !NOT_NAMES.has(word.toLowerCase()))
    .join(" ");
  if (name && NOT_NAMES.has(name.split(" ")[0]!.toLowerCase())) name = undefined;
  if (!name && email) {
    // "Jane Doe, jane@example.com": a short run of capitalised words right before the email.
    const before = message
      .slice(0, message.indexOf(email))
      .replace(/[,;:()<>\-–—]+\s*$/u, "")
      .trim();
    const m = /(?:^|[\s,])(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){0,3})$/u.exec(before);
    if (m) name = m[1];
  }
  if (name) out.name = name.slice(0, 100).trim();
  return out;
}

/** First and last name from a full name ("Jane van Doe" → Jane, van Doe). */
export function splitName(name: string): { firstName: string; lastName: string } {
  const [first = "", ...rest] = name.trim().split(/\s+/);
  return { firstName: first, lastName: rest.join(" ") };
}

const WORD = /[\p{L}\p{N}]{3,}/gu;
const STOP = new Set(
  "the and you your are for with what how does can that this have about from our any who why when where which there their will would could should please tell more much many want need like into also just than then them they its it's was were been being do did does not but all".split(
    " ",
  ),
);
const words = (text: string) =>
  new Set([...text.toLowerCase().matchAll(WORD)].map((m) => m[0]).filter((w) => !STOP.has(w)));

/**
 * The sentences of the business's own text that share the most words with the question (at most
 * three, in their order), or [] when none shares a word. No invention: only the profile's text.
 */
export function relevantSentences(knowledge: string, question: string, max = 3): string[] {
  const asked = words(question);
  if (asked.size === 0) return [];
  const sentences = knowledge
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && s.length <= 600);
  const scored = sentences
    .map((sentence, index) => {
      const own = words(sentence);
      let score = 0;
      for (const w of asked) if (own.has(w) || [...own].some((o) => o.startsWith(w) || w.startsWith(o))) score++;
      return { sentence, index, score };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, max)
    .sort((a, b) => a.index - b.index);
  return scored.map((s) => s.sentence);
}

export interface ReplyContext {
  businessName: string;
  knowledge: string;
  questions: readonly string[];
  /** How many assistant replies came before this one (which configured question to ask next). */
  replies: number;
  details: VisitorDetails;
  /** The lead was captured with this message. */
  capturedNow: boolean;
  /** The lead was captured before. */
  captured: boolean;
}

/**
 * The assistant's reply without an AI provider: the profile's sentences that answer the message, or
 * an honest "not in the profile"; then thanks for the details, or the next question / a request for
 * a name and email.
 */
export function offlineReply(message: string, ctx: ReplyContext): string {
  const business = ctx.businessName || "this business";
  const parts: string[] = [];
  if (ctx.capturedNow) {
    parts.push(
      `Thank you${ctx.details.name ? `, ${ctx.details.name.split(" ")[0]}` : ""}! The ${business} team will get back to you at ${ctx.details.email}.`,
    );
  } else {
    const found = relevantSentences(ctx.knowledge, message);
    if (found.length > 0) parts.push(`From ${business}'s profile: ${found.join(" ")}`);
    else if (!ctx.details.email && !ctx.details.name)
      parts.push(`I can only answer from ${business}'s profile, and it does not say that.`);
  }
  if (!ctx.captured && !ctx.capturedNow) {
    const next = ctx.questions[ctx.replies];
    if (ctx.details.name && !ctx.details.email) parts.push("What is your email, so the team can reply to you?");
    else if (ctx.details.email && !ctx.details.name) parts.push("And what is your name?");
    else if (next) parts.push(next);
    else parts.push("Leave your name and email and the team will answer you personally.");
  }
  return parts.join(" ");
}

/** The system prompt of an AI provider: answer only from the profile, in the tone, ask the questions. */
export function assistantPrompt(
  ctx: Omit<ReplyContext, "capturedNow" | "replies" | "details"> & { tone: string },
): string {
  return [
    `You are the chat assistant on the website of ${ctx.businessName || "a business"}. Tone: ${ctx.tone || "friendly"}.`,
    "Answer visitors' questions only from the business information below. When it does not answer the question, say so honestly and offer that the team will reply; never invent prices, facts or promises.",
    ctx.questions.length > 0
      ? `During the conversation, ask these questions one at a time: ${ctx.questions.join(" | ")}`
      : "",
    ctx.captured
      ? "The visitor already left their name and email."
      : "Invite the visitor to leave their name and email so the team can follow up.",
    "Keep replies under 120 words. Plain text, no markdown.",
    "Business information:",
    ctx.knowledge.slice(0, 20_000) || "(none given)",
  ]
    .filter(Boolean)
    .join("\n");
}
