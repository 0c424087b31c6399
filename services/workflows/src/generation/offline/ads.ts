import type { ComposeContext } from "../../domain/prompt";
import { aud, type Brief, briefOf, clip, firstSentence, fitFirst, sentenceList, unique } from "./brief";
import { AD_PLATFORMS, type AdPlatform, GOOGLE_ADS, META_ADS } from "./limits";
import { capitalize, lowerFirst, titleCase } from "./text";

/**
 * Offline ad copy. Each line is built from the user's offering, benefits, offer, keywords and
 * call to action, and every item is within its platform's limit (limits.ts) — a line that cannot
 * be said in the space is left out rather than cut mid-word.
 */

function ctaOr(brief: Brief, fallback: string): string {
  return brief.cta || fallback;
}

/** Google responsive search ad: headlines ≤ 30, descriptions ≤ 90, display paths ≤ 15 (AIDA). */
export function googleAds(ctx: ComposeContext): { headlines: string[]; descriptions: string[]; paths: string[] } {
  const b = briefOf(ctx, "google");
  const H = GOOGLE_ADS.headline;
  const offering = titleCase(b.offering);
  const keywords = b.keywords.map(titleCase);
  const audience = titleCase(b.audience);
  const cta = ctaOr(b, "Get Started Today");
  const headlines = unique(
    [
      // Attention: the searcher's own words first.
      ...keywords.slice(0, 3),
      offering,
      ...keywords.slice(0, 2).map((keyword) => `${keyword} | ${b.business}`),
      // Interest
      `${offering} for ${audience}`,
      `${keywords[0] ?? offering} for ${audience}`,
      b.business ? `${b.business} Official Site` : "",
      // Desire
      ...b.benefits.map((benefit) => capitalize(benefit)),
      ...b.features.map((feature) => capitalize(feature)),
      b.offer ? capitalize(b.offer) : "",
      `Loved by ${audience}`,
      // Action
      titleCase(cta),
      `${titleCase(cta)} Online`,
      b.domain ? `Visit ${b.domain}` : "",
    ].filter((line) => line && line.length <= H),
  ).slice(0, GOOGLE_ADS.maxHeadlines);
  // Always at least three headlines (Google's minimum): whole phrases from the inputs, then short
  // calls to action that fit any headline.
  for (const fallback of [
    offering,
    ...keywords,
    b.business,
    titleCase(cta),
    "Book Today",
    "Learn More",
    "Contact Us",
  ]) {
    if (headlines.length >= 3) break;
    const line = clip(fallback, H);
    if (line && !headlines.includes(line)) headlines.push(line);
  }

  const D = GOOGLE_ADS.description;
  const benefits = b.benefits.length ? b.benefits : b.features;
  const desc = b.description ? firstSentence(b.description) : "";
  const descriptions = unique(
    [
      fitFirst(
        [
          `${capitalize(b.offering)} for ${aud(b)}${benefits[0] ? `: ${lowerFirst(benefits[0])}` : ""}. ${cta}.`,
          `${capitalize(b.offering)} for ${aud(b)}. ${cta}.`,
        ],
        D,
      ),
      benefits.length >= 2
        ? fitFirst(
            [`${sentenceList(benefits.slice(0, 3))} ${cta}.`, `${sentenceList(benefits.slice(0, 2))} ${cta}.`],
            D,
          )
        : "",
      desc ? fitFirst([`${desc}. ${cta}.`, `${desc}.`], D) : "",
      b.offer
        ? fitFirst(
            [
              `${capitalize(b.offer)} on ${b.offering}. ${cta} at ${b.domain || b.business}.`,
              `${capitalize(b.offer)}. ${cta}.`,
            ],
            D,
          )
        : "",
      keywords.length
        ? fitFirst(
            [
              `Looking for ${b.keywords[0]}? ${b.business || capitalize(b.offering)} has you covered. ${cta}.`,
              `Looking for ${b.keywords[0]}? ${cta}.`,
            ],
            D,
          )
        : "",
      fitFirst([`Trusted by ${aud(b)}. ${cta} with ${b.business || "us"} today.`, `${cta} today.`], D),
    ].filter((line) => line && line.length <= D),
  ).slice(0, GOOGLE_ADS.maxDescriptions);

  const slug = (text: string) =>
    text
      .toLowerCase()
      .replace(/['’]/g, "")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "");
  // A display path is the leading whole words of a keyword that fit (never a cut word).
  const pathOf = (text: string) => {
    let path = "";
    for (const word of slug(text).split("-").filter(Boolean)) {
      const next = path ? `${path}-${word}` : word;
      if (next.length > GOOGLE_ADS.path) break;
      path = next;
    }
    return path;
  };
  const paths = unique([b.keywords[0] ?? b.offering, b.keywords[1] ?? "offers"].map(pathOf).filter(Boolean));
  return { headlines, descriptions, paths };
}

/** Meta (Facebook / Instagram) ad: primary texts ≤ 125, headlines ≤ 40, descriptions ≤ 30 (PAS). */
export function metaAds(ctx: ComposeContext): { primaryTexts: string[]; headlines: string[]; descriptions: string[] } {
  const b = briefOf(ctx, "meta");
  const P = META_ADS.primaryText;
  const cta = ctaOr(b, "Learn more");
  const pain = b.pains[0] ?? `${b.keywords[0] ?? b.offering} that never quite works out`;
  const benefit = b.benefits[0] ?? b.features[0] ?? "made for you";
  const offering = capitalize(b.offering);
  const primaryTexts = unique(
    [
      // Problem → Agitate → Solve, at three lengths.
      fitFirst(
        [
          `Tired of ${pain.toLowerCase()}? ${offering}: ${lowerFirst(benefit)}. ${b.offer ? `${capitalize(b.offer)}. ` : ""}${cta}.`,
          `Tired of ${pain.toLowerCase()}? ${offering}: ${lowerFirst(benefit)}. ${cta}.`,
          `${offering}: ${lowerFirst(benefit)}. ${cta}.`,
        ],
        P,
      ),
      fitFirst(
        [
          `${capitalize(aud(b))}, this one's for you: ${b.offering}. ${
            b.benefits
              .slice(0, 2)
              .map((x) => `${capitalize(x)}.`)
              .join(" ") || `${capitalize(benefit)}.`
          } ${cta}.`,
          `For ${aud(b)}: ${b.offering}. ${cta}.`,
        ],
        P,
      ),
      b.offer
        ? fitFirst(
            [
              `${capitalize(b.offer)} on ${b.offering} from ${b.business || "us"}. ${cta} while it lasts.`,
              `${capitalize(b.offer)}. ${cta}.`,
            ],
            P,
          )
        : fitFirst(
            [`${b.business ? `${b.business} makes ` : ""}${b.offering} for ${aud(b)}. ${cta}.`, `${offering}. ${cta}.`],
            P,
          ),
    ].filter((line) => line.length <= P),
  );
  const H = META_ADS.headline;
  const headlines = unique(
    [
      fitFirst([`${titleCase(b.offering)} for ${titleCase(b.audience)}`, titleCase(b.offering)], H),
      ...b.benefits.slice(0, 2).map((x) => clip(capitalize(x), H)),
      b.offer ? clip(capitalize(b.offer), H) : "",
      b.keywords[0] ? clip(titleCase(b.keywords[0]), H) : "",
      b.business ? clip(`${cta} with ${b.business}`, H) : "",
    ].filter((line) => line && line.length <= H),
  ).slice(0, 5);
  const D = META_ADS.description;
  const descriptions = unique(
    [
      b.offer ? clip(capitalize(b.offer), D) : "",
      b.domain ? clip(b.domain, D) : "",
      clip(capitalize(b.benefits[1] ?? b.features[0] ?? `${cta} today`), D),
      clip(`${cta} today`, D),
    ].filter((line) => line && line.length <= D),
  ).slice(0, 3);
  return { primaryTexts, headlines, descriptions };
}

/** A generic ad for one platform (AdsWriter): headlines, body texts and calls to action (FAB). */
export function adCopy(ctx: ComposeContext): {
  headlines: string[];
  bodies: string[];
  ctas: string[];
  platform: AdPlatform;
} {
  const b = briefOf(ctx, "ad");
  const value = b.text("platform") as AdPlatform;
  const platform: AdPlatform = value in AD_PLATFORMS ? value : "meta";
  const limits = AD_PLATFORMS[platform];
  const cta = ctaOr(b, "Learn more");
  const features = b.features.length ? b.features : b.benefits;
  const offering = capitalize(b.offering);
  const headlines = unique(
    [
      fitFirst([`${titleCase(b.offering)} for ${titleCase(b.audience)}`, titleCase(b.offering)], limits.headline),
      ...b.benefits.slice(0, 3).map((x) => clip(capitalize(x), limits.headline)),
      b.offer ? clip(capitalize(b.offer), limits.headline) : "",
      b.keywords[0] ? clip(titleCase(b.keywords[0]), limits.headline) : "",
    ].filter((line) => line && line.length <= limits.headline),
  ).slice(0, 5);
  // Feature → Advantage → Benefit, one per body text.
  const bodies = unique(
    features.slice(0, 3).map((feature, i) => {
      const benefit = b.benefits[i] ?? b.benefits[0] ?? "more time for what matters";
      return fitFirst(
        [
          `${offering} with ${lowerFirst(feature)}: ${lowerFirst(benefit)}. ${cta}.`,
          `${capitalize(feature)}: ${lowerFirst(benefit)}. ${cta}.`,
          `${capitalize(feature)}. ${cta}.`,
        ],
        limits.body,
      );
    }),
  );
  if (!bodies.length)
    bodies.push(fitFirst([`${offering} for ${aud(b)}. ${cta}.`, `${offering}. ${cta}.`], limits.body));
  const ctas = unique([
    cta,
    b.offer ? `Claim ${b.offer.toLowerCase()}` : "",
    b.domain ? `Visit ${b.domain}` : "",
    "Learn more",
  ])
    .filter((line) => line.length <= limits.headline)
    .slice(0, 3);
  return { headlines, bodies: bodies.filter((line) => line.length <= limits.body), ctas, platform };
}
