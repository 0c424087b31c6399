import { SMART_VALUES, smartValueToken } from "@crafter/email-language";
import escapeHtml from "escape-html";
import type { ComposeContext } from "../../domain/prompt";
import { aud, type Brief, briefOf, clip, firstSentence, fitFirst, hashtag, pick, sentenceList, unique } from "./brief";
import { EMAIL, type NetworkName, SOCIAL_NETWORKS } from "./limits";
import { capitalize, lowerFirst, subjectOf } from "./text";

/**
 * Offline social posts and emails, written from the user's message, benefits, offer, keywords
 * and call to action with a named framework, within each network's or inbox's limits.
 */

const HOOKS: Record<string, ((b: Brief, topic: string) => string)[]> = {
  AIDA: [
    (b, topic) => `${capitalize(aud(b))}: ${lowerFirst(topic)}.`,
    (_, topic) => `Quick one about ${lowerFirst(topic)}.`,
    (_, topic) => `Here is something worth knowing about ${lowerFirst(topic)}.`,
  ],
  PAS: [
    (b) => `Still struggling with ${(b.pains[0] ?? b.keywords[0] ?? "the same old problem").toLowerCase()}?`,
    (b) => `${capitalize(b.pains[0] ?? `getting ${b.keywords[0] ?? "it"} right`)} shouldn't be this hard.`,
  ],
  BAB: [
    (b) =>
      `Before: ${(b.pains[0] ?? "guesswork and wasted time").toLowerCase()}. After: ${(b.benefits[0] ?? "results you can see").toLowerCase()}.`,
  ],
};

export function networkOf(brief: Brief): NetworkName {
  const value = brief.text("network").toLowerCase();
  return (value in SOCIAL_NETWORKS ? value : "linkedin") as NetworkName;
}

/**
 * One post for the chosen network: a hook that fits above the fold, the body by framework, the
 * call to action, the link and the network's usual number of hashtags — never over its limit.
 */
export function socialPost(ctx: ComposeContext, framework: string): string {
  const b = briefOf(ctx, `social|${framework}`);
  const network = networkOf(b);
  const limits = SOCIAL_NETWORKS[network];
  const topic = b.topic;
  const hook = clip(pick(b, HOOKS[framework] ?? HOOKS.AIDA!)(b, topic), limits.foldChars);
  const benefits = b.benefits.slice(0, 3);
  const body: string[] = [];
  if (framework === "PAS") {
    body.push(
      `It costs ${aud(b)} time and money, and it rarely fixes itself.`,
      `${capitalize(b.offering)}${b.business && b.offering !== b.business ? ` from ${b.business}` : ""} ${benefits.length ? `changes that: ${benefits.map((x) => lowerFirst(x)).join("; ")}` : "takes care of it"}.`,
    );
  } else if (framework === "BAB") {
    body.push(
      `The bridge: ${b.offering}${benefits.length ? ` — ${benefits.map((x) => lowerFirst(x)).join("; ")}` : ""}.`,
    );
  } else {
    body.push(
      b.description ? `${firstSentence(b.description)}.` : `${capitalize(b.offering)} is made for ${aud(b)}.`,
      ...benefits.map((benefit) =>
        network === "x" || network === "threads" ? `✓ ${capitalize(benefit)}` : `✓ ${capitalize(benefit)}`,
      ),
    );
  }
  if (b.offer) body.push(`${capitalize(b.offer)}.`);
  const cta = `${b.cta || "Find out more"}${b.website ? `: ${b.website}` : "."}`;
  const tags = unique(b.keywords.map(hashtag)).slice(0, limits.hashtags).join(" ");
  const separator = network === "x" || network === "threads" ? " " : "\n\n";
  // Drop body lines from the end until the post fits; hook, call to action and tags stay.
  for (let lines = body.length; lines >= 0; lines--) {
    const parts = [hook, ...body.slice(0, lines), cta, tags].filter(Boolean);
    const post = parts.join(separator);
    if (post.length <= limits.maxChars) return post;
  }
  return clip([hook, cta].join(" "), limits.maxChars);
}

/** The first name as a smart value, filled per recipient when the email is sent ("there" when unknown). */
const FIRST_NAME = smartValueToken(
  "contact.firstName",
  SMART_VALUES.find((value) => value.name === "contact.firstName")?.fallback,
);

/**
 * One subject line per framework, in this order: benefit, curiosity, urgency, question and
 * personalised (greeting the reader by first name). Each form lists candidates from the most
 * specific to a short stand-in that always fits, so every framework gives a line whatever the inputs.
 */
const SUBJECT_FORMS: { framework: string; lines: (b: Brief) => string[] }[] = [
  {
    framework: "benefit",
    lines: (b) => {
      const benefit = b.benefits[0] ?? b.features[0] ?? "";
      return [
        b.offer ? `${capitalize(b.offer)} on ${b.offering}` : "",
        benefit ? `${capitalize(benefit)} with ${b.offering}` : "",
        benefit ? capitalize(benefit) : "",
        `${capitalize(b.offering)}, made for ${aud(b)}`,
        `${capitalize(b.offering)}: made for you`,
        "Made to make your week easier",
      ];
    },
  },
  {
    framework: "curiosity",
    lines: (b) => {
      const about = b.keywords[0] ?? b.offering;
      return [
        `What most ${aud(b)} don't know about ${about}`,
        `The little-known side of ${lowerFirst(about)}`,
        `What we learned about ${lowerFirst(about)}`,
        "The one thing we wish everyone knew",
      ];
    },
  },
  {
    framework: "urgency",
    lines: (b) => [
      b.offer ? `Ends soon: ${b.offer}` : "",
      b.offer ? `Last chance for ${lowerFirst(b.offer)}` : "",
      `Don't miss out on ${b.offering}`,
      `Now's the time for ${lowerFirst(b.offering)}`,
      "Don't wait on this one",
    ],
  },
  {
    framework: "question",
    lines: (b) => [
      b.pains[0] ? `Tired of ${lowerFirst(b.pains[0])}?` : "",
      b.pains[0] ? `Still dealing with ${lowerFirst(b.pains[0])}?` : "",
      `Is ${b.offering} right for you?`,
      `Ready to try ${b.offering}?`,
      "Got a minute for something new?",
    ],
  },
  {
    framework: "personalised",
    lines: (b) => [
      b.offer ? `Hi ${FIRST_NAME}, ${lowerFirst(b.offer)} inside` : "",
      `Hi ${FIRST_NAME}, ${lowerFirst(b.offering)} news`,
      `Hi ${FIRST_NAME}, this one's for you`,
      `${FIRST_NAME}, this one's for you`,
    ],
  },
];

/**
 * Five subject lines, one per framework of SUBJECT_FORMS (benefit first: the body's default
 * subject), each ≤ EMAIL.subject characters as written (a smart value counts as typed), distinct
 * (case-insensitive) and never the topic itself.
 */
export function subjectLines(b: Brief): string[] {
  const taken = new Set([b.topic.trim().toLowerCase()]);
  const lines: string[] = [];
  for (const form of SUBJECT_FORMS) {
    const line = form
      .lines(b)
      .map((candidate) => candidate.replace(/\s+/g, " ").trim())
      .find((candidate) => candidate && candidate.length <= EMAIL.subject && !taken.has(candidate.toLowerCase()));
    if (!line) continue;
    taken.add(line.toLowerCase());
    lines.push(line);
  }
  return lines;
}

/** Subject lines (≤ 60) and preheaders (≤ 100) for an email, each line from the inputs. */
export function emailHeaders(ctx: ComposeContext): { subjects: string[]; preheaders: string[] } {
  const b = briefOf(ctx, "email");
  const subjects = subjectLines(b);
  const preheaders = unique(
    [
      b.benefits.length ? `${sentenceList(b.benefits.slice(0, 2))} ${b.cta || "See how"}.` : "",
      b.description ? `${firstSentence(b.description)}.` : "",
      b.offer ? `${capitalize(b.offer)}. ${b.cta || "Don't miss it"}.` : "",
      `Made for ${aud(b)}: ${b.offering}.`,
    ]
      .filter(Boolean)
      .map((line) => fitFirst([line], EMAIL.preheader)),
  ).slice(0, 3);
  return { subjects, preheaders };
}

/**
 * The email body as HTML, led by its subject and preheader. Frameworks: PAS (promotions),
 * AIDA (announcements and newsletters), BAB (welcome and re-engagement).
 */
export function emailBody(ctx: ComposeContext, framework: string): string {
  const b = briefOf(ctx, `email|${framework}`);
  const headers = emailHeaders(ctx);
  const subject = clip(b.text("subject") || headers.subjects[0] || b.offering, EMAIL.subject);
  const preheader = clip(b.text("preheader") || headers.preheaders[0] || "", EMAIL.preheader);
  const e = escapeHtml;
  const greeting = b.text("greeting") || "Hi there,";
  const points = b.benefits.length ? b.benefits : b.features;
  const html = [
    `<p><strong>Subject:</strong> ${e(subject)}</p>`,
    `<p><em>Preheader:</em> ${e(preheader)}</p>`,
    "<hr>",
    `<p>${e(greeting)}</p>`,
  ];
  const cta = b.cta || "Find out more";
  const link = b.website ? `<a href="${e(b.website)}">${e(cta)}</a>` : `<strong>${e(cta)}</strong>`;
  // The user's inputs are woven into sentences, never pasted as a line or clause of their own.
  if (framework === "PAS") {
    const pain = b.pains[0] ?? `getting ${b.keywords[0] ?? "it"} right`;
    html.push(
      `<p>If you're up against ${e(lowerFirst(pain))}, you're not alone: we hear about it from ${e(aud(b))} all the time.</p>`,
      `<p>Left alone, it costs time, money and patience${b.pains[1] ? `, and it often brings ${e(lowerFirst(b.pains[1]))} with it` : ""}.</p>`,
      `<p>That's exactly why we made <strong>${e(b.offering)}</strong>${points.length ? ", and here is what it brings you:" : "."}</p>`,
    );
  } else if (framework === "BAB") {
    html.push(
      `<p>Picture ${e(b.pains[0] ? `dealing with ${lowerFirst(b.pains[0])}` : "the way things are today")} — and now picture it sorted${points[0] ? `, with ${e(lowerFirst(points[0]))}` : ""}.</p>`,
      `<p>For ${e(aud(b))}, <strong>${e(b.offering)}</strong> is the bridge between the two${points.length ? ":" : "."}</p>`,
    );
  } else {
    html.push(
      `<p>There's news on ${e(subjectOf(b.topic, b.keywords))}, and we wanted ${e(aud(b))} to hear it first.</p>`,
      `<p>We built <strong>${e(b.offering)}</strong> with you in mind${points.length ? ", and here is what it brings you:" : "."}</p>`,
    );
  }
  // The key points stay a list: the user's own points, meant to be scanned.
  if (points.length) html.push(`<ul>${points.map((point) => `<li>${e(capitalize(point))}</li>`).join("")}</ul>`);
  if (b.offer) html.push(`<p>And while it lasts, our offer to you is <strong>${e(lowerFirst(b.offer))}</strong>.</p>`);
  html.push(`<p>${link}</p>`, `<p>Thanks for reading,<br>${e(b.business || "The team")}</p>`);
  return html.filter(Boolean).join("\n");
}
