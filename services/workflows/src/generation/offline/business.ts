import type { ComposeContext } from "../../domain/prompt";
import { aud, briefOf, clip, firstSentence, unique } from "./brief";
import { capitalize, joinList, lowerFirst, phrase, titleCase } from "./text";

/**
 * Offline strategy drafts: brand messaging (StoryBrand-style hero/guide), a first business plan
 * (Lean Canvas), an improvement plan (ICE-scored), audience segments, a campaign plan (4Ps) and
 * a business profile drafted from a website audit. Each item quotes the user's own inputs.
 */

/** StoryBrand: the customer is the hero, the business the guide with a plan and a call to action. */
export function brandMessaging(ctx: ComposeContext) {
  const b = briefOf(ctx, "brand");
  const name = b.business || capitalize(b.offering);
  // Verb phrases ("bake great bread at home"); the fallbacks read the same way.
  const want =
    lowerFirst(phrase(b.text("customerWant")).replace(/^to /i, "")) ||
    `get ${b.keywords[0] ?? "results"} without the hassle`;
  const problem = b.pains[0] ?? `not knowing where to start with ${b.keywords[0] ?? b.offering}`;
  const different = b.list("differentiators");
  const success = phrase(b.text("success")) || `${aud(b)} who ${want}`;
  const values = b.list("values");
  const about = b.description ? ` ${firstSentence(b.description)}.` : "";
  return {
    positioning: [
      `For ${aud(b)} who want to ${want}, ${name} offers ${b.offering}${different[0] ? ` — unlike the alternatives, ${lowerFirst(different[0])}` : ""}.${about}`,
    ],
    valueProposition: unique([
      `${capitalize(b.offering)} that helps ${aud(b)} ${want}.`,
      ...different.map((item) => `${capitalize(item)}.`),
      ...b.benefits.map((item) => `${capitalize(item)}.`),
    ]).slice(0, 5),
    story: [
      `Hero: ${capitalize(aud(b))} who want to ${want}.`,
      `Problem: ${capitalize(problem)}.`,
      `Guide: ${name} understands and has the answer.${about}`,
      `Plan: 1. Get in touch. 2. Choose what fits you. 3. ${capitalize(want)}.`,
      `Call to action: ${b.cta || "Get started today"}.`,
      `Success: ${capitalize(success)}.`,
      `Failure avoided: no more ${lowerFirst(problem)}.`,
    ],
    messages: unique([
      ...b.benefits.map((item) => `${capitalize(phrase(item))} — for ${aud(b)}.`),
      ...values.map((value) => `We stand for ${lowerFirst(phrase(value))}.`),
      `${name} helps you ${want}.`,
    ]).slice(0, 6),
    taglines: unique([
      clip(`${capitalize(want)}, made simple.`, 60),
      clip(`${titleCase(b.keywords[0] ?? b.offering)}, done right.`, 60),
      clip(`Your partner in ${lowerFirst(b.keywords[0] ?? b.offering)}.`, 60),
      b.business ? clip(`${b.business}. ${capitalize(want)}.`, 60) : "",
    ]),
    elevatorPitch: [
      `You know how ${aud(b)} struggle with ${lowerFirst(problem)}? ${name} helps them ${want}.${about} The result: ${lowerFirst(success)}.`,
    ],
  };
}

/** Lean Canvas from a business idea. */
export function businessPlan(ctx: ComposeContext) {
  const b = briefOf(ctx, "plan");
  const idea = b.text("idea") || b.offering;
  const budget = b.text("budget");
  const pains = b.pains.length ? b.pains : [`finding a good ${b.keywords[0] ?? idea} is harder than it should be`];
  const channels = b.list("channels");
  return {
    problem: pains.map((pain) => `${capitalize(pain)}.`),
    customers: unique([`${capitalize(b.audience)}.`, ...b.list("earlyAdopters").map((x) => `Early adopters: ${x}.`)]),
    valueProposition: [
      `${capitalize(idea)} — ${b.benefits.length ? joinList(b.benefits.map((x) => x.toLowerCase())) : `a simpler way for ${aud(b)} to solve ${lowerFirst(pains[0]!)}`}.`,
    ],
    solution: unique([
      ...b.features.map((x) => `${capitalize(x)}.`),
      `Start with the smallest version of ${lowerFirst(idea)} that solves ${lowerFirst(pains[0]!)}.`,
    ]),
    channels: channels.length
      ? channels.map((channel) => `${capitalize(channel)}: one post or conversation a week aimed at ${aud(b)}.`)
      : [
          `Word of mouth among ${aud(b)}.`,
          `A simple website found by searches for ${b.keywords.slice(0, 2).join(" and ") || idea}.`,
          "One social network where your customers already spend time.",
        ],
    revenue: [
      b.text("pricing")
        ? `Pricing: ${b.text("pricing")}.`
        : `Price against the cost of ${lowerFirst(pains[0]!)} to the customer, not against your costs.`,
      budget
        ? `Starting budget: ${budget}; spend it on the first ten paying customers before anything else.`
        : "Keep start-up costs small until ten customers have paid.",
    ],
    metrics: [
      "Conversations with potential customers each week.",
      "Paying customers and repeat orders.",
      "Cost to win one customer versus what they spend.",
    ],
    firstSteps: [
      `This week: talk to five ${aud(b)} about ${lowerFirst(pains[0]!)}.`,
      `Within a month: sell a first version of ${lowerFirst(idea)} to three of them.`,
      "Within three months: keep what they pay for, drop what they do not, and write down your price.",
    ],
  };
}

interface Idea {
  text: string;
  impact: number;
  confidence: number;
  ease: number;
}

/** Improvements ranked by ICE (Impact × Confidence × Ease, each 1–10). */
export function businessOptimization(ctx: ComposeContext) {
  const b = briefOf(ctx, "optimize");
  const area = b.text("focusArea") || "sales";
  const challenges = b.pains.length ? b.pains : [`growing ${area}`];
  const working = b.list("whatWorks");
  const ideas: Idea[] = [
    ...challenges.map((challenge, i) => ({
      text: `Tackle "${challenge}": ask five recent customers about it and fix the most common cause first.`,
      impact: 8 - i,
      confidence: 6,
      ease: 7,
    })),
    ...working.map((item) => ({
      text: `Do more of what works — ${lowerFirst(item)}: give it a weekly slot and a simple target.`,
      impact: 7,
      confidence: 8,
      ease: 8,
    })),
    {
      text: `Add a clear call to action to every page and post about ${b.offering}.`,
      impact: 6,
      confidence: 7,
      ease: 9,
    },
    {
      text: `Ask every happy customer for a review; quote them where ${aud(b)} decide.`,
      impact: 7,
      confidence: 7,
      ease: 8,
    },
    {
      text: `Follow up every enquiry within a day, with a template you write once.`,
      impact: 6,
      confidence: 8,
      ease: 8,
    },
    ...(b.website
      ? [
          {
            text: `Check that ${b.domain} says what you do and for whom in the first screen.`,
            impact: 6,
            confidence: 6,
            ease: 9,
          },
        ]
      : []),
  ];
  const scored = ideas
    .map((idea) => ({ ...idea, score: idea.impact * idea.confidence * idea.ease }))
    .sort((x, y) => y.score - x.score);
  return {
    priorities: scored.map(
      (idea) => `${idea.text} (ICE ${idea.impact}×${idea.confidence}×${idea.ease} = ${idea.score})`,
    ),
    quickWins: scored
      .filter((idea) => idea.ease >= 8)
      .slice(0, 3)
      .map((idea) => idea.text),
    metrics: unique([
      `${capitalize(area)} per week`,
      "Enquiries and how many become customers",
      "Reviews and repeat customers",
      b.goal ? `Progress to: ${b.goal}` : "",
    ]),
  };
}

/** Audience segments from the audience and offering, each with a need, message and channel. */
export function audienceSegments(ctx: ComposeContext) {
  const b = briefOf(ctx, "segments");
  const region = b.text("region");
  const where = region ? ` in ${region}` : "";
  const base = b.audience;
  const seeds = unique([...b.list("customerTypes"), base]);
  const angles = [
    {
      who: "first-time buyers",
      need: `a simple, low-risk first try of ${b.offering}`,
      channel: "search and a clear landing page",
    },
    {
      who: "loyal regulars",
      need: "recognition, early access and reasons to come back",
      channel: "email and a loyalty offer",
    },
    { who: "busy professionals", need: "speed and convenience", channel: "LinkedIn and short email" },
    { who: "gift buyers", need: "an easy, trustworthy present", channel: "Instagram and seasonal campaigns" },
    {
      who: "budget-conscious shoppers",
      need: "clear value and no surprises",
      channel: "Facebook and comparison content",
    },
  ];
  const segments = seeds
    .slice(0, 2)
    .flatMap((seed, s) =>
      angles
        .slice(s * 2, s * 2 + 3)
        .map(
          (angle) =>
            `${capitalize(seed)}${where} who are ${angle.who}: they want ${angle.need}. Reach them through ${angle.channel}.`,
        ),
    );
  return {
    segments: segments.slice(0, 5),
    messages: segments
      .slice(0, 5)
      .map(
        (_, i) =>
          `${capitalize(angles[i % angles.length]!.who)}: "${capitalize(b.benefits[i % Math.max(1, b.benefits.length)] ?? b.offering)}" — ${b.cta || "find out more"}.`,
      ),
    questions: [
      `What made you choose ${b.business || "us"} over the alternatives?`,
      `What almost stopped you from buying ${b.offering}?`,
      "Where did you first hear about us?",
    ],
  };
}

/** A campaign plan by the 4Ps: product, price (offer), place (channels), promotion (message). */
export function campaignPlan(ctx: ComposeContext) {
  const b = briefOf(ctx, "campaign");
  const channels = b.list("channels");
  const dates = ctx.values.dates as { start?: string; end?: string } | undefined;
  const start = b.text("startDate") || dates?.start || "";
  const end = b.text("endDate") || dates?.end || "";
  const slogan = clip(
    b.text("slogan") || `${capitalize(b.benefits[0] ?? b.offering)}, ${b.offer ? lowerFirst(b.offer) : "now"}.`,
    60,
  );
  return {
    summary: [
      `Objective: ${capitalize(b.goal || `more ${aud(b)} choosing ${b.offering}`)}.`,
      `Product: ${capitalize(b.offering)}${b.benefits.length ? ` — ${joinList(b.benefits.map((x) => x.toLowerCase()))}` : ""}.`,
      `Price / offer: ${b.offer ? capitalize(b.offer) : "No discount; lead with value"}.`,
      `Place: ${channels.length ? joinList(channels.map(capitalize)) : "Email, your website and one social network"}.`,
      `Promotion: ${b.text("message") || `${capitalize(b.offering)} for ${aud(b)}`}.`,
      start || end ? `Dates: ${start || "?"} to ${end || "?"}.` : "",
    ].filter(Boolean),
    slogans: unique([
      slogan,
      clip(`${titleCase(b.keywords[0] ?? b.offering)} for ${titleCase(b.audience)}`, 60),
      clip(`${b.cta || "Join us"} — ${b.offering}`, 60),
    ]),
    timeline: [
      `Before launch${start ? ` (the week before ${start})` : ""}: tease the campaign to existing customers.`,
      `Launch${start ? ` (${start})` : ""}: announce on ${channels[0] ?? "email"} with the slogan and the call to action "${b.cta || "Find out more"}".`,
      "Middle: share a customer story or a behind-the-scenes post.",
      `Last days${end ? ` (before ${end})` : ""}: a reminder${b.offer ? ` that ${lowerFirst(b.offer)} ends soon` : ""}.`,
      "After: thank those who joined and note what worked.",
    ],
    channels: (channels.length ? channels : ["email", "website", "instagram"]).map(
      (channel) =>
        `${capitalize(channel)}: ${channel.toLowerCase().includes("email") ? "two sends — launch and last call" : "three posts across the campaign"}.`,
    ),
  };
}

/** A business profile drafted from the website audit (BusinessSetup) and the user's answers. */
export function businessProfile(ctx: ComposeContext) {
  const b = briefOf(ctx, "profile");
  const audit = auditOf(ctx);
  // What the user typed wins, then what their website says, then the project profile.
  const name =
    phrase(b.text("businessName")) || audit.title.split(/[|–—-]/)[0]?.trim() || b.business || capitalize(b.offering);
  const description =
    phrase(b.text("description")) || phrase(audit.description) || b.description || `${name} serves ${aud(b)}`;
  const keywords = unique([
    ...b.keywords,
    ...audit.headings
      .flatMap((heading) => heading.toLowerCase().split(/[,:|–—-]/))
      .map((x) => x.trim())
      .filter((x) => x.split(" ").length <= 4 && x.length > 3),
  ]).slice(0, 10);
  // Without keywords of its own or from the website, the profile's keywords are what it offers,
  // then its name: the Keywords section is never empty (the output asks for at least one).
  if (keywords.length === 0) {
    keywords.push(
      ...unique([...b.list("offerings"), b.offering, name].map((x) => clip(x.toLowerCase(), 60))).slice(0, 5),
    );
  }
  return {
    name: [name],
    description: [clip(`${description}.`, 300)],
    audience: [capitalize(b.audience)],
    keywords,
    offerings: unique([
      ...b.list("offerings"),
      ...audit.headings.slice(0, 3),
      b.offering !== name ? capitalize(b.offering) : "",
    ])
      .slice(0, 5)
      .concat(b.list("offerings").length || audit.headings.length ? [] : [`${name}: ${clip(description, 120)}`])
      .slice(0, 5),
    fixes: audit.issues.length ? audit.issues : ["No problems found on the page that was audited."],
  };
}

/** The website audit of an earlier FunctionCaller step, read from its readable content. */
function auditOf(ctx: ComposeContext): { title: string; description: string; headings: string[]; issues: string[] } {
  for (const step of Object.values(ctx.steps)) {
    const data = (step as { data?: unknown }).data as
      | { title?: string; metaDescription?: string; headings?: { text: string }[]; issues?: string[] }
      | undefined;
    if (data && typeof data === "object" && "title" in data) {
      return {
        title: data.title ?? "",
        description: data.metaDescription ?? "",
        headings: (data.headings ?? []).map((heading) => heading.text).filter(Boolean),
        issues: data.issues ?? [],
      };
    }
  }
  return { title: "", description: "", headings: [], issues: [] };
}
