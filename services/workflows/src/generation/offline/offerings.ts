import escapeHtml from "escape-html";
import type { ComposeContext } from "../../domain/prompt";
import { aud, briefOf, clip, firstSentence, fitFirst, unique } from "./brief";
import { SEO } from "./limits";
import { capitalize, joinList, lowerFirst, titleCase } from "./text";

/**
 * Offline drafts for products and services: idea lists (jobs-to-be-done), page copy (FAB:
 * feature → advantage → benefit) and the setup summary with an SEO title, meta description
 * (≤ 160) and slug.
 */

const IDEA_FORMS = [
  (k: string, a: string) => `A starter kit for ${a} new to ${k}`,
  (k: string, a: string) => `A monthly ${k} subscription for ${a}`,
  (k: string, a: string) => `A hands-on ${k} workshop for ${a}`,
  (k: string, _a: string) => `A premium ${k} bundle for gifting`,
  (k: string, a: string) => `A digital guide to ${k} for ${a}`,
  (k: string, _a: string) => `Refills and add-ons for ${k}`,
  (k: string, a: string) => `A done-for-you ${k} service for busy ${a}`,
];

/** Product ideas: one per keyword × job, each with who it is for. */
export function productIdeas(ctx: ComposeContext) {
  const b = briefOf(ctx, "ideas");
  const themes = unique([...b.list("themes"), ...b.keywords, b.offering]).slice(0, 4);
  const count = Math.max(3, Math.min(10, Number(ctx.values.count) || 6));
  const ideas: string[] = [];
  for (let i = 0; ideas.length < count && i < themes.length * IDEA_FORMS.length; i++) {
    const theme = themes[i % themes.length]!;
    const form = IDEA_FORMS[Math.floor(i / themes.length + i) % IDEA_FORMS.length]!;
    ideas.push(capitalize(form(lowerFirst(theme), aud(b))));
  }
  const price = b.text("priceRange");
  return {
    ideas: unique(ideas),
    validation: [
      `Ask ten ${aud(b)} which of these they would buy${price ? ` at ${price}` : ""}, and at what price.`,
      "Pre-sell the favourite before making it: a waiting list or deposit proves demand.",
      b.pains[0]
        ? `Check that each idea removes "${b.pains[0]}" — drop those that do not.`
        : "Drop the ideas nobody asks a question about.",
    ],
  };
}

function slugOf(text: string): string {
  return clip(
    text
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, ""),
    SEO.slug,
  ).replace(/-+$/, "");
}

/** The page of a product or service as HTML: headline, FAB paragraphs, list, terms, CTA. */
export function offeringPage(ctx: ComposeContext, kind: "product" | "service"): string {
  const b = briefOf(ctx, `page|${kind}`);
  const e = escapeHtml;
  const features = b.features.length ? b.features : b.benefits;
  const html = [`<h1>${e(titleCase(b.offering))}</h1>`];
  html.push(
    `<p>${e(b.description ? `${firstSentence(b.description)}.` : `${capitalize(b.offering)} is made for ${aud(b)}.`)} ${e(`Made for ${aud(b)}${b.keywords[0] ? ` who care about ${b.keywords[0]}` : ""}.`)}</p>`,
  );
  if (features.length) {
    html.push(`<h2>${kind === "product" ? "Why you'll love it" : "What you get"}</h2>`, "<ul>");
    features.forEach((feature, i) => {
      const benefit = b.benefits[i] && b.benefits[i] !== feature ? b.benefits[i] : undefined;
      html.push(
        `<li><strong>${e(capitalize(feature))}</strong>${benefit ? ` — so you get ${e(lowerFirst(benefit))}` : ""}</li>`,
      );
    });
    html.push("</ul>");
  }
  const usage = b.text("usage");
  if (usage)
    html.push(`<h2>${kind === "product" ? "How to use it" : "How it works"}</h2>`, `<p>${e(capitalize(usage))}</p>`);
  const terms = b.text(kind === "product" ? "shipping" : "terms");
  if (terms)
    html.push(`<h2>${kind === "product" ? "Shipping and returns" : "Terms"}</h2>`, `<p>${e(capitalize(terms))}</p>`);
  const cta = b.cta || (kind === "product" ? "Order now" : "Book a call");
  html.push(`<p><strong>${e(cta)}</strong>${b.website ? ` — <a href="${e(b.website)}">${e(b.domain)}</a>` : ""}</p>`);
  return html.join("\n");
}

/** The setup summary of a product or service: summary, features/benefits, SEO title, description, slug. */
export function offeringSummary(ctx: ComposeContext, kind: "product" | "service") {
  const b = briefOf(ctx, `summary|${kind}`);
  const points =
    kind === "product" ? (b.features.length ? b.features : b.benefits) : b.benefits.length ? b.benefits : b.features;
  const name = titleCase(b.offering);
  const lead = b.description ? firstSentence(b.description) : `${capitalize(b.offering)} for ${aud(b)}`;
  return {
    summary: [
      clip(
        `${lead}. ${points.length ? `${capitalize(joinList(points.slice(0, 3).map((x) => x.toLowerCase())))}.` : ""}`,
        300,
      ),
    ],
    points: points.length ? points.map(capitalize) : [`Made for ${aud(b)}`],
    seoTitle: [fitFirst([`${name} | ${b.business}`, `${name} for ${titleCase(b.audience)}`, name], SEO.title)],
    seoDescription: [
      fitFirst(
        [
          `${lead}. ${points[0] ? `${capitalize(points[0])}. ` : ""}${b.cta || (kind === "product" ? "Order online today" : "Book today")}.`,
          `${lead}.`,
        ],
        SEO.description,
      ),
    ],
    slug: [
      slugOf(
        b.keywords[0] && !b.offering.toLowerCase().includes(b.keywords[0].toLowerCase())
          ? `${b.offering} ${b.keywords[0]}`
          : b.offering,
      ),
    ],
  };
}
