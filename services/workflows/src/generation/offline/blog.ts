import type { JsonValue } from "@bufbuild/protobuf";
import { isValidUrl, normalizeUrl } from "@crafter/kit/validation";
import { escapeHtml } from "../../domain/output";
import type { ComposeContext } from "../../domain/prompt";
import { capitalize, Deck, hashString, joinList, lowerFirst, phrase, seededRandom, subjectOf, titleCase } from "./text";

/**
 * The offline blog writer. It never pretends to be AI: it arranges the user's own topic,
 * keywords, audience, tone and business profile into a named copywriting framework — AIDA for
 * title ideas and the outline, PAS (Problem, Agitate, Solve) for the draft — deterministically.
 */

export interface Inputs {
  text(name: string): string;
  list(name: string): string[];
}

/** Reads an input by name: the step being completed first, then earlier steps in order. */
export function inputsOf(ctx: ComposeContext): Inputs {
  const find = (name: string): JsonValue | undefined => {
    if (ctx.values[name] !== undefined) return ctx.values[name];
    for (const step of Object.values(ctx.steps)) if (step.values[name] !== undefined) return step.values[name];
    return undefined;
  };
  return {
    text(name) {
      const value = find(name);
      if (Array.isArray(value)) return value.map(String).join(", ").trim();
      return typeof value === "string" || typeof value === "number" ? String(value).trim() : "";
    },
    list(name) {
      const value = find(name);
      if (Array.isArray(value)) return value.map((item) => String(item).trim()).filter(Boolean);
      return typeof value === "string" && value.trim()
        ? value
            .split(",")
            .map((item) => item.trim())
            .filter(Boolean)
        : [];
    },
  };
}

interface Tone {
  guide: string;
  openers: string[];
  ctaLead: string;
  signOff: string;
}

const TONES: Record<string, Tone> = {
  friendly: {
    guide: "A Friendly Guide",
    openers: ["Here's the thing:", "Let's be honest:", "Good news:"],
    ctaLead: "We'd love to help.",
    signOff: "You've got this — one step at a time.",
  },
  professional: {
    guide: "A Practical Guide",
    openers: ["In practice,", "Put simply,", "The pattern is consistent:"],
    ctaLead: "Ready to put this into practice?",
    signOff: "Consistent, measured steps deliver the most reliable results.",
  },
  playful: {
    guide: "The Fun, No-Yawn Guide",
    openers: ["Spoiler alert:", "Plot twist:", "Fun fact:"],
    ctaLead: "Fancy a hand?",
    signOff: "Go on — have some fun with it.",
  },
  bold: {
    guide: "The No-Nonsense Guide",
    openers: ["Let's be blunt:", "Here's the hard truth:", "No sugar-coating:"],
    ctaLead: "Stop waiting. Start now.",
    signOff: "The people who get results are the ones who act.",
  },
};

function toneOf(inputs: Inputs): Tone {
  return TONES[inputs.text("tone").toLowerCase()] ?? TONES.friendly!;
}

/** The subjects both composers write about, with sensible stand-ins for what the user left empty. */
function subjects(ctx: ComposeContext) {
  const inputs = inputsOf(ctx);
  const profile = ctx.profile;
  const topic = phrase(inputs.text("topic") || profile?.name || "your topic");
  const keywords = (inputs.list("keywords").length ? inputs.list("keywords") : (profile?.keywords ?? []))
    .map(phrase)
    .filter((keyword) => keyword && keyword.toLowerCase() !== topic.toLowerCase());
  const audience = phrase(inputs.text("audience") || profile?.audience || "") || "your readers";
  const business = phrase(profile?.name ?? "");
  const description = (profile?.description ?? "").trim();
  const seed = hashString(JSON.stringify([topic.toLowerCase(), keywords, audience, inputs.text("tone")]));
  // The topic as written goes in titles; `subject` is the form that reads inside a sentence.
  const subject = subjectOf(topic, keywords);
  return { inputs, topic, subject, keywords, audience, business, description, tone: toneOf(inputs), seed };
}

/** The title ideas and outline of a post, each stage of AIDA in turn. */
export function planBlog(ctx: ComposeContext): { titles: string[]; outline: string[] } {
  const { topic, subject, keywords, audience, business, tone, seed } = subjects(ctx);
  const random = seededRandom(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
  const T = titleCase(topic);
  const S = titleCase(subject);
  const A = titleCase(audience);
  const K = keywords[0] ? titleCase(keywords[0]) : undefined;
  const aud = lowerFirst(audience);

  const outline = [
    // Attention
    pick([
      `Why ${subject} matters to ${aud}`,
      `Why ${subject} is harder than it looks`,
      `What ${aud} get wrong about ${subject}`,
    ]),
    // Interest
    pick([`The basics of ${subject}`, `${capitalize(subject)} in plain words`, `What ${subject} really involves`]),
    ...keywords
      .slice(0, 3)
      .map(
        (keyword, i) =>
          [
            `${capitalize(keyword)}: what you need to know`,
            `Getting ${keyword} right`,
            `Where ${keyword} makes the difference`,
          ][(i + Math.floor(random() * 3)) % 3]!,
      ),
    // Desire
    pick([
      `What success with ${subject} looks like`,
      `The results ${aud} can expect`,
      `What changes when you get ${subject} right`,
    ]),
    ...(business ? [`How ${business} can help`] : []),
    // Action
    pick([`Your first steps`, `A simple plan to start this week`, `Putting it into practice`]),
  ].map(capitalize);

  const titles = [
    // Attention
    pick([
      `Why ${S} Matters More Than ${A} Think`,
      `${S}: What ${A} Get Wrong (and How to Fix It)`,
      `The Truth About ${S} for ${A}`,
    ]),
    // Interest
    K ? pick([`${K}: What Actually Works for ${A}`, `${K}, Explained for ${A}`]) : `${S}, Explained in Plain Words`,
    // Desire
    `${T}: ${tone.guide} for ${A}`,
    // Action
    `${outline.length} Steps to ${S}`,
    business ? `How ${business} Approaches ${S}` : `${S}: A Checklist You Can Use Today`,
  ];
  const seen = new Set<string>();
  return { titles: titles.filter((title) => !seen.has(title.toLowerCase()) && seen.add(title.toLowerCase())), outline };
}

/** The plan as the sectioned list every engine writes: `## Heading` then `- item` lines. */
export function composeBlogPlan(ctx: ComposeContext, sections: { key: string; heading: string }[]): string {
  const plan = planBlog(ctx) as Record<string, string[]>;
  return sections
    .map((section) => [`## ${section.heading}`, ...(plan[section.key] ?? []).map((item) => `- ${item}`)].join("\n"))
    .join("\n\n");
}

// Sentence banks of the draft, written to read well for businesses and individuals alike.
// Slots: {topic} (the subject phrase), {Topic}, {keyword}, {Keyword}, {audience}, {Audience}, {opener}.
const PROBLEM = [
  "If you are one of the {audience} trying to make sense of {topic}, you already know the feeling: plenty of advice, very little of it written for your situation.",
  "Most of what gets written about {topic} is either too generic to act on or too technical to finish reading.",
  "The result is familiar — time spent, effort made, and not much to show for it.",
  "{opener} {topic} does not have to be complicated, but it does need a plan.",
  "This article is that plan, written for {audience} who would rather act than read theory.",
  "Questions about {keyword} keep coming up, and the honest answer usually depends on who is asking.",
];

const AGITATE = [
  "The cost of getting {keyword} wrong rarely shows up all at once; it builds quietly, week after week.",
  "Every month without a clear approach to {topic} is another month of the same frustrations.",
  "{Audience} often tell the same story: they tried a few things, saw mixed results, and were left unsure what actually made the difference.",
  "Without a simple way to judge {keyword}, every decision becomes a guess — and guesses are expensive.",
  "It is easy to put {topic} off until things calm down. Things rarely calm down.",
  "Small gaps in {keyword} add up: a wasted afternoon here, a disappointing result there.",
  "{opener} doing nothing about {topic} is also a decision, and usually the costliest one.",
  "The frustrating part is that most problems with {keyword} are avoidable once you can see them.",
  "When {topic} is handled piecemeal, the pieces rarely fit together.",
  "Conflicting advice makes it worse: for every tip about {keyword}, there is another that says the opposite.",
  "Scattered effort on {keyword} feels busy, yet leaves little you can point to afterwards.",
  "And the longer {topic} stays on the someday list, the bigger and more daunting it seems.",
];

const SOLVE = [
  "Start small: pick one part of {topic} you can improve this week and notice the difference.",
  "Make {keyword} a habit rather than a project — a short, regular check beats an occasional overhaul.",
  "Decide what good looks like before you change anything, so you can tell whether it worked.",
  "{opener} the simplest version that works is better than the perfect version that never happens.",
  "Learn from people who have done it before you; their mistakes are cheaper than your own.",
  "Tie {keyword} to a clear goal, so every effort has something to aim at.",
  "Review what you learn every few weeks and drop whatever is not pulling its weight.",
  "Use the tools and skills you already have before adding new ones — consistency matters more than novelty.",
  "Explain your approach to {topic} to someone else; saying it out loud sharpens it.",
  "Give each change enough time to show results before you judge it.",
  "Keep a short list of what worked for {keyword}, so the next decision is quicker than the last.",
  "Write your plan for {topic} down in a few lines, in words you would use yourself.",
  "Set a modest, specific target for {topic} and celebrate when you reach it.",
  "When in doubt, choose the option that is easiest to keep doing.",
];

const LEADS = [
  "This is where {keyword} comes in.",
  "Let's look at this through the lens of {keyword}.",
  "For {audience}, this part deserves a closer look.",
  "Here is what that means in practice.",
  "It helps to be concrete here.",
  "{Keyword} is a good place to focus.",
  "Take this one step at a time.",
  "This part is simpler than it looks.",
];

const CHECKLIST = [
  "Choose one measurable goal for {keyword}",
  "Set aside thirty minutes a week for {topic}",
  "Write down the three questions you hear most often",
  "Note what you tried and what changed",
  "Remove one step that slows you down",
  "Share one useful tip about {keyword} with someone who needs it",
];

interface Slots {
  topic: string;
  keyword: string;
  audience: string;
  opener: string;
}

/** Fills a template with HTML-escaped slot values; the first use of the keyword is emphasised. */
function filler(emphasised: Set<string>) {
  return (template: string, slots: Slots): string =>
    template.replace(/\{(topic|Topic|keyword|Keyword|audience|Audience|opener)\}/g, (_, slot: string) => {
      if (slot === "Topic") return escapeHtml(capitalize(slots.topic));
      if (slot === "Audience") return escapeHtml(capitalize(slots.audience));
      if (slot === "keyword" || slot === "Keyword") {
        const keyword = escapeHtml(slot === "Keyword" ? capitalize(slots.keyword) : slots.keyword);
        if (emphasised.has(slots.keyword.toLowerCase())) return keyword;
        emphasised.add(slots.keyword.toLowerCase());
        return `<strong>${keyword}</strong>`;
      }
      return escapeHtml(slots[slot as keyof Slots]);
    });
}

const WORDS_PER_SENTENCE = 19;

/**
 * The full draft as HTML, PAS: the introduction states the Problem, the first sections Agitate it,
 * the rest Solve it; one H2 per outline item, the keywords woven through, the business profile
 * quoted, and a conclusion with a call to action. About `targetWords` long.
 */
export function composeBlogDraft(ctx: ComposeContext, targetWords: number): string {
  const { inputs, topic, subject, keywords, audience, business, description, tone, seed } = subjects(ctx);
  const title = phrase(inputs.text("title")) || titleCase(topic);
  const outline = inputs.list("outline").length
    ? inputs.list("outline")
    : [`Why ${subject} matters`, `The basics of ${subject}`, `Your next steps`];
  const random = seededRandom(hashString(`${seed}|${title}|${outline.join("|")}`));
  const decks = {
    problem: new Deck(PROBLEM, random),
    agitate: new Deck(AGITATE, random),
    solve: new Deck(SOLVE, random),
    leads: new Deck(LEADS, random),
    openers: new Deck(tone.openers, random),
    checklist: new Deck(CHECKLIST, random),
  };
  const aud = lowerFirst(audience);
  const slotsFor = (keyword: string): Slots => ({
    topic: subject,
    keyword,
    audience: aud,
    opener: decks.openers.draw(),
  });
  const keywordAt = (i: number) => keywords[i % Math.max(1, keywords.length)] ?? subject;

  const html: string[] = [`<h1>${escapeHtml(title)}</h1>`];

  // Problem: the introduction.
  const introFill = filler(new Set());
  const intro = [PROBLEM[0]!, decks.problem.draw(), PROBLEM[3]!, PROBLEM[4]!]
    .filter((sentence, i, all) => all.indexOf(sentence) === i)
    .map((sentence) => introFill(sentence, slotsFor(keywordAt(0))));
  html.push(`<p>${intro.slice(0, 2).join(" ")}</p>`, `<p>${intro.slice(2).join(" ")}</p>`);

  // The sections share what is left of the budget, at least one paragraph of three sentences each.
  const fixedWords = 160;
  const sentencesPerSection = Math.max(3, Math.round((targetWords - fixedWords) / outline.length / WORDS_PER_SENTENCE));
  const agitating = Math.max(1, Math.floor(outline.length / 3));
  let quoted = false;

  outline.forEach((heading, s) => {
    const keyword = keywordAt(s);
    const fill = filler(new Set());
    const deck = s < agitating ? decks.agitate : decks.solve;
    const sentences = [fill(decks.leads.draw(), slotsFor(keyword))];
    while (sentences.length < sentencesPerSection) sentences.push(fill(deck.draw(), slotsFor(keyword)));
    html.push(`<h2>${escapeHtml(heading)}</h2>`);
    for (let at = 0; at < sentences.length; at += 4) {
      const paragraph = sentences.slice(at, at + 4);
      if (paragraph.length < 2 && at > 0) {
        html[html.length - 1] = html[html.length - 1]!.replace(/<\/p>$/, ` ${paragraph.join(" ")}</p>`);
      } else {
        html.push(`<p>${paragraph.join(" ")}</p>`);
      }
    }
    // Solve: the business speaks once, in its own words, where the advice starts.
    if (s >= agitating && !quoted && business) {
      quoted = true;
      html.push(
        description
          ? `<blockquote>At ${escapeHtml(business)}, this is how we describe what we do: “${escapeHtml(phrase(description))}.”</blockquote>`
          : `<p>This is the approach we take at ${escapeHtml(business)} every day.</p>`,
      );
    }
    if (s === outline.length - 1 && targetWords >= 900) {
      const items = [0, 1, 2].map(() => `<li>${fill(decks.checklist.draw(), slotsFor(keyword))}</li>`);
      html.push(`<ul>${[...new Set(items)].join("")}</ul>`);
    }
  });

  // Action: the conclusion and the call to action.
  const fill = filler(new Set(keywords.map((keyword) => keyword.toLowerCase())));
  const close = [
    fill("{Topic} rewards those who treat it as a steady practice rather than a one-off push.", slotsFor(subject)),
    keywords.length
      ? `Keep ${escapeHtml(joinList(keywords.slice(0, 3)))} in view, and let every change serve ${escapeHtml(aud)}.`
      : fill("Let every change you make serve {audience}.", slotsFor(subject)),
    escapeHtml(tone.signOff),
  ];
  html.push("<h2>Where to go from here</h2>", `<p>${close.join(" ")}</p>`);
  const website =
    business && ctx.profile?.websiteUrl && isValidUrl(ctx.profile.websiteUrl, { allowSchemeless: true })
      ? normalizeUrl(ctx.profile.websiteUrl, { allowSchemeless: true })
      : null;
  const cta = business
    ? `<strong>${escapeHtml(tone.ctaLead)}</strong> ${escapeHtml(business)} can help you with ${escapeHtml(subject)}.` +
      (website
        ? ` <a href="${escapeHtml(website)}" rel="noopener noreferrer">Visit ${escapeHtml(new URL(website).hostname.replace(/^www\./, ""))}</a> to get started.`
        : " Get in touch to get started.")
    : `<strong>${escapeHtml(tone.ctaLead)}</strong> Pick one idea from this article and try it this week.`;
  html.push(`<p>${cta}</p>`);
  return html.join("\n");
}
