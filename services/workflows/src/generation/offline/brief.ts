import { isValidUrl, normalizeUrl } from "@crafter/validation";
import { fitPhrases } from "../../domain/output";
import type { ComposeContext } from "../../domain/prompt";
import { inputsOf } from "./blog";
import { capitalize, hashString, joinList, lowerFirst, phrase, seededRandom } from "./text";

/**
 * What every offline composer writes from: the user's inputs (by the input names the definitions
 * share — offering, audience, keywords, benefits, …) with the craft's profile as the fallback.
 * Names are looked up in the step being completed first, then in earlier steps.
 */
export interface Brief {
  business: string;
  /** The business in one sentence (profile description or the user's). */
  description: string;
  audience: string;
  keywords: string[];
  /** The normalised website (https://…), or "" when there is none or it is not a valid URL. */
  website: string;
  /** "example.com" for the website, or "". */
  domain: string;
  /** What is being promoted: a product, service, campaign or the business itself. */
  offering: string;
  benefits: string[];
  features: string[];
  pains: string[];
  /** An offer or promotion, e.g. "20% off the first order", or "". */
  offer: string;
  /** The call to action as a short imperative phrase, e.g. "Book a free call". */
  cta: string;
  tone: ToneName;
  goal: string;
  topic: string;
  /** A seeded random source: the same inputs always give the same draft. */
  random: () => number;
  text(name: string): string;
  list(name: string): string[];
  /** The label of a select value of the current step (or the value). */
  label(name: string): string;
}

export type ToneName = "friendly" | "professional" | "playful" | "bold";

const CTA_LABELS: Record<string, string> = {
  learnMore: "Learn more",
  shopNow: "Shop now",
  bookNow: "Book now",
  signUp: "Sign up",
  contactUs: "Get in touch",
  getQuote: "Get a quote",
  getOffer: "Claim the offer",
  download: "Download it",
  call: "Call us today",
  visit: "Visit us",
};

export function ctaText(value: string): string {
  return CTA_LABELS[value] ?? (value ? capitalize(phrase(value)) : "");
}

/** The first sentence of a text, without its full stop. */
export function firstSentence(text: string): string {
  const match = text.trim().match(/^(.+?[.!?])(\s|$)/);
  return phrase(match ? match[1]! : text);
}

export function briefOf(ctx: ComposeContext, extraSeed = ""): Brief {
  const inputs = inputsOf(ctx);
  const profile = ctx.profile;
  const first = (...names: string[]) => names.map((name) => inputs.text(name)).find(Boolean) ?? "";
  const firstList = (...names: string[]) => names.map((name) => inputs.list(name)).find((list) => list.length) ?? [];
  const business = phrase(first("businessName") || profile?.name || "");
  const description = phrase(first("description", "businessDescription") || profile?.description || "");
  const audience = phrase(first("audience") || profile?.audience || "") || "your customers";
  const keywords = firstList("keywords", "seedKeywords").length
    ? firstList("keywords", "seedKeywords")
    : (profile?.keywords ?? []);
  const rawSite = first("url", "landingUrl", "websiteUrl") || profile?.websiteUrl || "";
  const website =
    rawSite && isValidUrl(rawSite, { allowSchemeless: true }) ? normalizeUrl(rawSite, { allowSchemeless: true })! : "";
  const domain = website ? new URL(website).hostname.replace(/^www\./, "") : "";
  const offering = phrase(
    first("offering", "productName", "serviceName", "campaignName", "name") || business || "our offer",
  );
  const tone = (first("tone").toLowerCase() as ToneName) || "friendly";
  const topic = phrase(first("topic", "message", "idea") || offering);
  const seed = hashString(JSON.stringify([business, offering, topic, audience, keywords, extraSeed, ctx.values]));
  const labels = ctx.labels;
  return {
    business,
    description,
    audience,
    keywords,
    website,
    domain,
    offering,
    benefits: firstList("benefits", "valueProps", "keyPoints").map(phrase),
    features: firstList("features").map(phrase),
    pains: firstList("painPoints", "problems", "challenges").map(phrase),
    offer: phrase(first("offer", "promotion")),
    cta: ctaText(first("cta", "callToAction")),
    tone: ["friendly", "professional", "playful", "bold"].includes(tone) ? tone : "friendly",
    goal: phrase(first("goal", "objective")),
    topic,
    random: seededRandom(seed),
    text: inputs.text,
    list: inputs.list,
    label: (name) => labels[name] ?? inputs.text(name),
  };
}

/**
 * The text within `max` characters, shortened only by whole sentences or phrases (fitPhrases);
 * "" when none fits, so the caller leaves the line out. Never cuts mid-phrase.
 */
export function clip(text: string, max: number): string {
  return fitPhrases(text, max);
}

/** The first candidate that fits in `max`, else the leading whole phrases of the first; "" if none. */
export function fitFirst(candidates: string[], max: number): string {
  const clean = candidates.map((candidate) => candidate.replace(/\s+/g, " ").trim()).filter(Boolean);
  return (
    clean.find((candidate) => candidate.length <= max) ??
    clean.map((candidate) => clip(candidate, max)).find(Boolean) ??
    ""
  );
}

/** Unique (case-insensitive), non-empty items, in order. */
export function unique(items: string[]): string[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.trim().toLowerCase();
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** ["fast delivery", "free returns"] → "Fast delivery. Free returns." (benefits read as short sentences). */
export function sentenceList(items: string[]): string {
  return items.map((item) => `${capitalize(phrase(item))}.`).join(" ");
}

/** "sourdough starter" → "#SourdoughStarter". */
export function hashtag(text: string): string {
  const words = text
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  return words.length ? `#${words.map((word) => capitalize(word.toLowerCase())).join("")}` : "";
}

/**
 * The audience as it reads inside a sentence: a list the user typed ("weekend riders in north-west
 * Leeds; e-bike owners", one per line) becomes one phrase ("weekend riders in north-west Leeds and
 * e-bike owners").
 */
export function aud(brief: Brief): string {
  const parts = brief.audience
    .split(/\s*(?:[;\n|]|\s\/\s)\s*/)
    .map((part) => phrase(part))
    .filter(Boolean);
  return joinList(parts.map(lowerFirst));
}

/** Picks one of `items` with the brief's seeded random source. */
export function pick<T>(brief: Brief, items: readonly T[]): T {
  return items[Math.floor(brief.random() * items.length)]!;
}

/** A list of `- item` lines under `## heading`, the text format every engine writes. */
export function listSections(sections: { key: string; heading: string }[], items: Record<string, string[]>): string {
  return sections
    .map((section) =>
      [
        `## ${section.heading}`,
        ...(items[section.key] ?? []).map((item) => `- ${item.replace(/\s*\n\s*/g, " ")}`),
      ].join("\n"),
    )
    .join("\n\n");
}
