import type { JsonValue } from "@bufbuild/protobuf";
import { isValidUrl, normalizeUrl } from "@crafter/validation";
import escapeHtml from "escape-html";
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
export function composeBlogPlan(
  ctx: ComposeContext,
  sections: { key: string; heading: string; maxChars?: number }[],
): string {
  const plan = planBlog(ctx) as Record<string, string[]>;
  // A section with a limit gets the items that fit it, else short whole titles that do.
  for (const section of sections) {
    const max = section.maxChars;
    if (max === undefined || !plan[section.key]) continue;
    const fitting = plan[section.key]!.filter((item) => item.length <= max);
    plan[section.key] = fitting.length
      ? fitting
      : ["What to Know", "Tips That Work", "Start Here", "A Short Guide"].filter((item) => item.length <= max);
  }
  return sections
    .map((section) => [`## ${section.heading}`, ...(plan[section.key] ?? []).map((item) => `- ${item}`)].join("\n"))
    .join("\n\n");
}

// Sentence banks of the draft, written to read well for businesses and individuals alike. They
// never carry the topic's question or the audience: a draft that repeats the user's own phrases
// reads as filler. Slots: {keyword}, {Keyword}, {opener}.
const PROBLEM = [
  "There is plenty of advice about {keyword}, and very little of it is written for your situation.",
  "Most of what gets written about {keyword} is either too generic to act on or too technical to finish reading.",
  "The result is familiar: time spent, effort made, and not much to show for it.",
  "Questions about {keyword} keep coming up, and the honest answer usually depends on who is asking.",
];

const AGITATE = [
  "The cost of getting {keyword} wrong rarely shows up all at once; it builds quietly, week after week.",
  "Every month without a clear approach is another month of the same frustrations.",
  "Many people tell the same story: they tried a few things, saw mixed results, and were left unsure what actually made the difference.",
  "Without a simple way to judge {keyword}, every decision becomes a guess, and guesses are expensive.",
  "It is easy to put this off until things calm down. Things rarely calm down.",
  "Small gaps in {keyword} add up: a wasted afternoon here, a disappointing result there.",
  "{opener} doing nothing is also a decision, and usually the costliest one.",
  "The frustrating part is that most problems with {keyword} are avoidable once you can see them.",
  "Handled piecemeal, the pieces rarely fit together.",
  "Conflicting advice makes it worse: for every tip about {keyword}, there is another that says the opposite.",
  "Scattered effort feels busy, yet leaves little you can point to afterwards.",
  "And the longer it stays on the someday list, the bigger and more daunting it seems.",
];

const SOLVE = [
  "Start small: pick one thing you can improve this week and notice the difference.",
  "Make {keyword} a habit rather than a project; a short, regular check beats an occasional overhaul.",
  "Decide what good looks like before you change anything, so you can tell whether it worked.",
  "{opener} the simplest version that works is better than the perfect version that never happens.",
  "Learn from people who have done it before you; their mistakes are cheaper than your own.",
  "Tie {keyword} to a clear goal, so every effort has something to aim at.",
  "Review what you learn every few weeks and drop whatever is not pulling its weight.",
  "Use the tools and skills you already have before adding new ones; consistency matters more than novelty.",
  "Explain your approach to someone else; saying it out loud sharpens it.",
  "Give each change enough time to show results before you judge it.",
  "Keep a short list of what worked for {keyword}, so the next decision is quicker than the last.",
  "Write your plan down in a few lines, in words you would use yourself.",
  "Set a modest, specific target and celebrate when you reach it.",
  "When in doubt, choose the option that is easiest to keep doing.",
];

const LEADS = [
  "This is where {keyword} comes in.",
  "Let's look at this through the lens of {keyword}.",
  "This part deserves a closer look.",
  "Here is what that means in practice.",
  "It helps to be concrete here.",
  "{Keyword} is a good place to focus.",
  "Take this one step at a time.",
  "This part is simpler than it looks.",
];

const CHECKLIST = [
  "Choose one measurable goal for {keyword}",
  "Set aside thirty minutes a week for it",
  "Write down the three questions you hear most often",
  "Note what you tried and what changed",
  "Remove one step that slows you down",
  "Share one useful tip about {keyword} with someone who needs it",
];

interface Slots {
  keyword: string;
  opener: string;
}

/** Fills a template with HTML-escaped slot values; the first use of each keyword is emphasised. */
function filler(emphasised: Set<string>) {
  return (template: string, slots: Slots): string =>
    template.replace(/\{(keyword|Keyword|opener)\}/g, (_, slot: string) => {
      if (slot === "opener") return escapeHtml(slots.opener);
      if (slots.keyword === "it") return slot === "Keyword" ? "It" : "it";
      const keyword = escapeHtml(slot === "Keyword" ? capitalize(slots.keyword) : slots.keyword);
      if (emphasised.has(slots.keyword.toLowerCase())) return keyword;
      emphasised.add(slots.keyword.toLowerCase());
      return `<strong>${keyword}</strong>`;
    });
}

const WORDS_PER_SENTENCE = 19;
const QUESTION_WORDS = /^(how|why|what|when|where|which|who|should|can|could|do|does|is|are|will)\b/i;

/** The same heading, ignoring case and punctuation. */
function sameText(a: string, b: string): boolean {
  const key = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
  return key(a) === key(b);
}

/** A fact as a sentence of its own: capitalised, ending in a full stop. */
function sentence(text: string): string {
  const clean = phrase(text);
  return clean ? `${capitalize(clean)}.` : "";
}

/**
 * The full draft as HTML, PAS: the introduction states the Problem; a first section answers the
 * topic's question with the user's own facts (key points, else the business description); the
 * outline's sections Agitate, then Solve; a conclusion with a call to action. About
 * `targetWords` long at most: no sentence is used twice, so a short bank makes a shorter post
 * rather than a repetitive one, and the topic and audience are each named at most twice.
 */
export function composeBlogDraft(ctx: ComposeContext, targetWords: number): string {
  const { inputs, topic, subject, keywords, audience, business, description, tone, seed } = subjects(ctx);
  const title = phrase(inputs.text("title")) || titleCase(topic);
  const facts = inputs.list("keyPoints").map(sentence).filter(Boolean);
  const bareTopic = phrase(topic);
  const question =
    QUESTION_WORDS.test(bareTopic) && !/^how\s+to\b/i.test(bareTopic) ? `${capitalize(bareTopic)}?` : null;
  const outline = (
    inputs.list("outline").length ? inputs.list("outline") : [`The basics of ${subject}`, "Your next steps"]
  ).filter((heading) => !sameText(heading, bareTopic) && !sameText(heading, title));
  const random = seededRandom(hashString(`${seed}|${title}|${outline.join("|")}`));
  const decks = {
    problem: new Deck(PROBLEM, random),
    agitate: new Deck(AGITATE, random),
    solve: new Deck(SOLVE, random),
    leads: new Deck(LEADS, random),
    openers: new Deck(tone.openers, random),
    checklist: new Deck(CHECKLIST, random),
  };
  const used = new Set<string>();
  const emphasised = new Set<string>();
  const fill = filler(emphasised);
  const keywordAt = (i: number) => keywords[i % Math.max(1, keywords.length)] ?? subject;
  /** The next sentence of a bank not used yet in this post, or null when the bank is spent. */
  // A keyword is named once per section; after that the sentence says "it".
  let named = false;
  const take = (deck: Deck<string>, size: number, keyword: string): string | null => {
    for (let tries = 0; tries < size; tries++) {
      const template = deck.draw();
      if (used.has(template)) continue;
      used.add(template);
      const hasKeyword = /\{keyword\}|\{Keyword\}/.test(template);
      const line = fill(template, { keyword: hasKeyword && named ? "it" : keyword, opener: decks.openers.draw() });
      if (hasKeyword) named = true;
      return line;
    }
    return null;
  };
  const paragraphs = (sentences: string[]) => {
    const out: string[] = [];
    for (let at = 0; at < sentences.length; at += 4) out.push(`<p>${sentences.slice(at, at + 4).join(" ")}</p>`);
    return out;
  };

  const html: string[] = [`<h1>${escapeHtml(title)}</h1>`];

  // Problem: the introduction.
  named = false;
  const intro = [take(decks.problem, PROBLEM.length, keywordAt(0)), take(decks.problem, PROBLEM.length, keywordAt(1))]
    .filter((line): line is string => line !== null)
    .concat("Here is a straight answer first, then what it means in practice.");
  html.push(...paragraphs(intro));

  // The answer, in the user's own facts.
  const answerHeading =
    question && sameText(question, title)
      ? "The short answer"
      : question
        ? `${question} The short answer`
        : `${capitalize(bareTopic)}: the short answer`;
  html.push(`<h2>${escapeHtml(answerHeading)}</h2>`);
  if (facts.length > 0) html.push(`<p>${escapeHtml(facts.join(" "))}</p>`);
  else if (description) html.push(`<p>${escapeHtml(sentence(description))}</p>`);
  else
    html.push("<p><em>Add your answer here: the facts, numbers and advice you give when you are asked this.</em></p>");

  // The outline: the first third agitates, the rest solves.
  const fixedWords = 160;
  const perSection = Math.max(
    3,
    Math.round((targetWords - fixedWords) / Math.max(1, outline.length) / WORDS_PER_SENTENCE),
  );
  const agitating = Math.max(1, Math.floor(outline.length / 3));
  let quoted = false;
  outline.forEach((heading, s) => {
    const keyword = keywordAt(s);
    named = false;
    const sentences: string[] = [];
    const lead = take(decks.leads, LEADS.length, keyword);
    if (lead) sentences.push(lead);
    const [deck, size] = s < agitating ? [decks.agitate, AGITATE.length] : [decks.solve, SOLVE.length];
    while (sentences.length < perSection) {
      const next = take(deck, size, keyword);
      if (!next) break;
      sentences.push(next);
    }
    html.push(`<h2>${escapeHtml(capitalize(heading))}</h2>`);
    if (sentences.length === 0) sentences.push(escapeHtml(`More on ${keyword}: add your own experience here.`));
    html.push(...paragraphs(sentences));
    // Solve: the business speaks once, in its own words, where the advice starts.
    if (s >= agitating && !quoted && business && description && facts.length > 0) {
      quoted = true;
      html.push(`<blockquote>${escapeHtml(sentence(description))}</blockquote>`);
    }
    if (s === outline.length - 1 && targetWords >= 900) {
      const items = [0, 1, 2]
        .map(() => take(decks.checklist, CHECKLIST.length, keyword))
        .filter((item): item is string => item !== null);
      if (items.length) html.push(`<ul>${items.map((item) => `<li>${item}</li>`).join("")}</ul>`);
    }
  });

  // Action: the conclusion and the call to action.
  const aud = lowerFirst(audience);
  const close = [
    "Treat this as a steady practice rather than a one-off push.",
    keywords.length
      ? `Keep ${escapeHtml(joinList(keywords.slice(0, 3)))} in view, and let every change serve ${escapeHtml(aud)}.`
      : `Let every change you make serve ${escapeHtml(aud)}.`,
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
