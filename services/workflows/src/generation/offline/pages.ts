import escapeHtml from "escape-html";
import type { ComposeContext } from "../../domain/prompt";
import { aud, briefOf, clip, firstSentence, fitFirst, unique } from "./brief";
import { SEO } from "./limits";
import { capitalize, joinList, lowerFirst, titleCase } from "./text";

/**
 * Offline web pages (StoryBrand-style page: hero, problem, guide, plan, proof, call to action)
 * and podcast episodes (hook → segments → call to action), each section or segment written once
 * per item by an IteratorStep.
 */

/** The item an IteratorStep is writing and its index (0-based), when the engine passes them. */
export function itemOf(ctx: ComposeContext): { item: string; index: number } {
  const raw = ctx as { item?: unknown; itemIndex?: unknown };
  const item = raw.item ?? ctx.values.item;
  const index = raw.itemIndex ?? ctx.values.itemIndex;
  return { item: typeof item === "string" ? item : String(item ?? ""), index: typeof index === "number" ? index : 0 };
}

/** A section heading is one item of the outline, which holds at most 120 characters each. */
export const SECTION_HEADING = 120;
const heading = (...candidates: string[]) => fitFirst(candidates, SECTION_HEADING);

const PAGE_SECTIONS: Record<string, (o: string, a: string) => string[]> = {
  home: (o, a) => [
    heading(`Hero: ${o} for ${a}`, `Hero: ${o}`, "Hero: what we do"),
    "The problem we solve",
    "How it works in three steps",
    "What customers say",
    "Get started",
  ],
  landing: (o, a) => [
    heading(`Hero: ${o} for ${a}`, `Hero: ${o}`, "Hero: what we offer"),
    "The problem",
    "The offer",
    "What you get",
    "Questions and answers",
    "Call to action",
  ],
  about: (o) => [
    "Our story",
    heading(`Why we started ${o}`, "Why we started"),
    "What we believe",
    "Meet the team",
    "Work with us",
  ],
  service: (o, a) => [
    heading(`Hero: ${o}`, "Hero: our service"),
    heading(`Who ${o} is for: ${a}`, `Who ${o} is for`, "Who it is for"),
    "What's included",
    "How it works",
    "Pricing and next steps",
  ],
};

export function webPagePlan(ctx: ComposeContext) {
  const b = briefOf(ctx, "pagePlan");
  const type = b.text("pageType") || "landing";
  const sections = (PAGE_SECTIONS[type] ?? PAGE_SECTIONS.landing!)(b.offering, aud(b));
  const title = titleCase(b.offering);
  return {
    headlines: unique([
      clip(`${capitalize(b.benefits[0] ?? b.offering)} for ${b.audience}`, 70),
      clip(`${title}: ${b.keywords[0] ? titleCase(b.keywords[0]) : "Made Simple"}`, 70),
      clip(`${capitalize(b.offering)}, made for ${aud(b)}`, 70),
    ]),
    sections,
    seoTitle: [clip(b.business ? `${title} | ${b.business}` : title, SEO.title)],
  };
}

/** One section of the page as HTML (the iterator's item is the section heading). */
export function webPageSection(ctx: ComposeContext): string {
  const b = briefOf(ctx, "section");
  const { item, index } = itemOf(ctx);
  const e = escapeHtml;
  // The hero carries the headline the user chose, when there is one.
  const heading = (index === 0 && b.text("headline")) || item.replace(/^Hero:\s*/i, "") || titleCase(b.offering);
  const lower = item.toLowerCase();
  const cta = b.cta || "Get started";
  const ctaHtml = b.website ? `<a href="${e(b.website)}">${e(cta)}</a>` : `<strong>${e(cta)}</strong>`;
  const html = [index === 0 ? `<h1>${e(capitalize(heading))}</h1>` : `<h2>${e(capitalize(heading))}</h2>`];
  if (index === 0 || lower.startsWith("hero")) {
    html.push(
      `<p>${e(b.description ? `${firstSentence(b.description)}.` : `${capitalize(b.offering)} for ${aud(b)}.`)}</p>`,
      `<p>${ctaHtml}</p>`,
    );
  } else if (/problem|why we started/.test(lower)) {
    const pains = b.pains.length
      ? b.pains
      : [`too little time for ${b.keywords[0] ?? "it"}`, "advice that doesn't fit"];
    html.push(
      `<p>${e(capitalize(aud(b)))} tell us the same things:</p>`,
      `<ul>${pains.map((pain) => `<li>${e(capitalize(pain))}</li>`).join("")}</ul>`,
      `<p>${e(`${b.business || "We"} built ${b.offering} to change that.`)}</p>`,
    );
  } else if (/how it works|steps/.test(lower)) {
    html.push(
      `<ol><li>${e(`Tell us what you need`)}</li><li>${e(`We tailor ${b.offering} to you`)}</li><li>${e(capitalize(b.benefits[0] ?? "Enjoy the result"))}</li></ol>`,
    );
  } else if (/offer|pricing/.test(lower)) {
    html.push(
      `<p>${e(b.offer ? `${capitalize(b.offer)}.` : `Clear pricing for ${b.offering}, with no surprises.`)}</p>`,
      `<p>${ctaHtml}</p>`,
    );
  } else if (/what you get|included|believe/.test(lower)) {
    const points = unique([...b.features, ...b.benefits]);
    html.push(
      points.length
        ? `<ul>${points.map((point) => `<li>${e(capitalize(point))}</li>`).join("")}</ul>`
        : `<p>${e(`Everything ${aud(b)} need from ${b.offering}.`)}</p>`,
    );
  } else if (/customers say|proof|team|story/.test(lower)) {
    html.push(
      `<p>${e(b.description ? `${firstSentence(b.description)}.` : `${b.business || "We"} work with ${aud(b)} every day.`)} ${e(`Ask us for examples of ${b.keywords[0] ?? b.offering} work we are proud of.`)}</p>`,
    );
  } else if (/question/.test(lower)) {
    html.push(
      `<h3>${e(`Who is ${b.offering} for?`)}</h3><p>${e(`${capitalize(aud(b))}${b.keywords.length ? ` looking for ${joinList(b.keywords.slice(0, 2))}` : ""}.`)}</p>`,
      `<h3>How do I start?</h3><p>${e(`${cta} — it takes a few minutes.`)}</p>`,
    );
  } else {
    html.push(
      `<p>${e(`${capitalize(heading)}: ${b.benefits[index % Math.max(1, b.benefits.length)] ?? `what ${b.offering} means for ${aud(b)}`}.`)}</p>`,
      `<p>${ctaHtml}</p>`,
    );
  }
  return html.join("\n");
}

export function podcastPlan(ctx: ComposeContext) {
  const b = briefOf(ctx, "podcast");
  const guest = b.text("guest");
  const minutes = Number(ctx.values.durationMinutes) || 20;
  const points = b.list("talkingPoints");
  const segments = [
    `Cold open: why ${lowerFirst(b.topic)} matters to ${aud(b)}`,
    ...(guest ? [`Meet ${guest}`] : []),
    ...(points.length
      ? points
      : [`The basics of ${lowerFirst(b.topic)}`, `Common mistakes with ${lowerFirst(b.topic)}`, `What to do next`]),
    "Wrap-up and call to action",
  ];
  return {
    titles: unique([
      clip(`${titleCase(b.topic)}${guest ? ` with ${guest}` : ""}`, 70),
      clip(`What ${titleCase(b.audience)} Should Know About ${titleCase(b.topic)}`, 70),
      clip(`${titleCase(b.topic)} in ${minutes} Minutes`, 70),
    ]),
    segments,
  };
}

/** The script of one segment (the iterator's item), about a share of the episode's minutes. */
export function podcastSegment(ctx: ComposeContext): string {
  const b = briefOf(ctx, "segment");
  const { item, index } = itemOf(ctx);
  const host = b.text("host") || "HOST";
  const guest = b.text("guest");
  const lines = [`[${capitalize(item)}]`];
  if (index === 0) {
    lines.push(
      `${host}: Welcome${b.business ? ` to the ${b.business} podcast` : ""}. Today: ${lowerFirst(b.topic)}. If you're one of the ${aud(b)} listening, stay to the end — there's something you can use this week.`,
    );
  } else if (guest && item.toLowerCase().includes(guest.toLowerCase())) {
    lines.push(
      `${host}: My guest today is ${guest}. Tell us how you got into ${lowerFirst(b.topic)}.`,
      `${guest.toUpperCase()}: [answer]`,
      `${host}: What's the one thing you wish ${aud(b)} knew?`,
    );
  } else if (/wrap-up|call to action/i.test(item)) {
    lines.push(
      `${host}: That's it for today. The short version: ${lowerFirst(b.topic)} gets easier with a plan.`,
      `${host}: ${b.cta || "Subscribe so you don't miss the next episode"}${b.website ? ` — find us at ${b.domain}` : ""}. Thanks for listening.`,
    );
  } else {
    lines.push(
      `${host}: Let's talk about ${lowerFirst(item)}.`,
      `${host}: Here's what we see with ${aud(b)}: ${b.pains[0] ? lowerFirst(b.pains[0]) : "the same questions come up again and again"}.`,
      `${host}: Three things help: start small, keep at it every week, and check what changed.${b.keywords[0] ? ` Especially with ${b.keywords[0]}.` : ""}`,
      `${host}: Try this after the episode — pick one part of ${lowerFirst(item)} and do it today.`,
    );
  }
  return lines.join("\n");
}
