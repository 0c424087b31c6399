import { parseSmartValues } from "@crafter/email-language";
import { describe, expect, it } from "@jest/globals";
import type { ComposeContext } from "../src/domain/prompt";
import type { Values } from "../src/domain/types";
import { ctaText } from "../src/generation/offline/brief";
import { EMAIL } from "../src/generation/offline/limits";
import { emailBody, emailHeaders } from "../src/generation/offline/social";
import { profile } from "./fixtures";

// The offline engine's email copy over many generated briefs: five distinct subject lines from
// different frameworks, and a body whose prose uses the inputs inside sentences rather than
// pasting a field as a line or clause of its own.

const TOPICS = [
  "Spring bike service week",
  "Our winter sourdough classes",
  "How to keep a starter alive",
  "Why does bread collapse?",
  "New opening hours",
  "Summer yoga retreat in the Dales",
  "Black Friday",
  "Meet our new head chef",
  "Five ways to cut your energy bill",
  "The autumn menu is here",
  "Tax return deadline reminder",
  "Puppy training, week one",
];
const AUDIENCES = [
  "weekend riders in north-west Leeds; e-bike owners",
  "home bakers",
  "busy parents who work from home",
  "small business owners in Manchester\nfreelancers\nsole traders",
  "first-time home buyers",
  "yoga beginners over fifty",
  "UK dog owners with young puppies",
  "students / young professionals",
  "Restaurant regulars and local food lovers",
  "Landlords with one or two properties | letting agents",
];
const OFFERINGS = [
  "E-bike servicing",
  "Sourdough starter kit",
  "The Sunday family brunch",
  "Mortgage advice appointments",
  "Crumb Pro subscription",
  "Online puppy training course with weekly live calls",
  "Energy audit",
  "Retreat weekend for two",
];
const OFFERS = [
  "20% off your first service",
  "",
  "Free delivery on orders over £30",
  "Buy one, get one free this weekend",
  "A free 30-minute consultation",
  "",
  "15% off with code SPRING",
  "Two classes for the price of one",
];
const PAINS = [
  ["flat tyres on the way to work", "brakes that squeal in the rain"],
  ["flat, dense loaves", "starters that die"],
  [],
  ["not knowing where to start"],
  ["bills that keep going up every quarter", "draughty rooms"],
];
const BENEFITS = [
  ["Fewer breakdowns", "Same-week appointments", "Free pick-up and drop-off"],
  ["Bake your first loaf in a week", "Step-by-step video lessons"],
  [],
  ["Clear advice in plain English"],
];
const KEYWORDS = [["bike service"], ["sourdough starter", "wild yeast"], [], ["puppy training"]];
const CTAS = ["bookNow", "shopNow", "", "getQuote", "Reserve your table"];
const TYPES = ["promotion", "announcement", "newsletter", "welcome"];

/** Dozens of briefs: each list walked with a different stride, so the combinations vary. */
const briefs: Values[] = Array.from({ length: 60 }, (_, i) => ({
  emailType: TYPES[i % TYPES.length]!,
  topic: TOPICS[i % TOPICS.length]!,
  audience: AUDIENCES[(i * 3) % AUDIENCES.length]!,
  offering: OFFERINGS[(i * 5) % OFFERINGS.length]!,
  offer: OFFERS[(i * 7) % OFFERS.length]!,
  painPoints: PAINS[(i * 2) % PAINS.length]!,
  benefits: BENEFITS[(i * 3) % BENEFITS.length]!,
  keywords: KEYWORDS[i % KEYWORDS.length]!,
  cta: CTAS[(i * 3) % CTAS.length]!,
  url: i % 4 === 0 ? "" : "https://shop.example.com",
}));

const ctx = (values: Values) => ({ values, steps: {}, profile, labels: {} }) as unknown as ComposeContext;

const words = (text: string) => text.trim().split(/\s+/).filter(Boolean).length;
const decode = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

/**
 * The prose of a body: the paragraphs after the rule, without the greeting, the key-point list
 * (the user's own points, listed by design), the call-to-action link and the sign-off. Each
 * paragraph as plain text.
 */
function prose(html: string, cta: string): string[] {
  const body = html.slice(html.indexOf("<hr>") + 4).replace(/<ul>[\s\S]*?<\/ul>/g, "");
  const paragraphs = [...body.matchAll(/<p>([\s\S]*?)<\/p>/g)].map((match) => match[1]!);
  return paragraphs
    .slice(1) // the greeting
    .map((paragraph) => decode(paragraph.replace(/<[^>]+>/g, "")))
    .filter((paragraph) => paragraph !== cta && !paragraph.startsWith("Thanks for reading"));
}

const BOUNDARY = /[.!?;:,—–"“”()\n]/;

/**
 * Where `value` stands as a clause of its own in `text`: an occurrence with only punctuation (or
 * the paragraph's start / end) on both sides, e.g. "…from us: weekend riders; e-bike owners." .
 */
function pastedClause(text: string, value: string): boolean {
  const haystack = text.toLowerCase();
  const needle = value.trim().toLowerCase();
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    const before = haystack.slice(0, at).trimEnd();
    const after = haystack.slice(at + needle.length).trimStart();
    const openBefore = before === "" || BOUNDARY.test(before.slice(-1));
    const openAfter = after === "" || BOUNDARY.test(after.charAt(0));
    if (openBefore && openAfter) return true;
  }
  return false;
}

describe("offline email copy over generated briefs", () => {
  it("gives five distinct subject lines, none the topic, within the inbox limit, one per framework", () => {
    for (const values of briefs) {
      const { subjects } = emailHeaders(ctx(values));
      const context = JSON.stringify({ values, subjects });
      expect({ context, count: subjects.length >= 5 }).toEqual({ context, count: true });
      const keys = subjects.map((line) => line.trim().toLowerCase());
      expect({ context, distinct: new Set(keys).size }).toEqual({ context, distinct: keys.length });
      expect({ context, topic: keys.includes(String(values.topic).trim().toLowerCase()) }).toEqual({
        context,
        topic: false,
      });
      for (const line of subjects) expect(line.length).toBeLessThanOrEqual(EMAIL.subject);
      // A question, and one greeting the reader by first name with the product's smart value.
      expect(subjects.some((line) => line.endsWith("?"))).toBe(true);
      const personal = subjects.filter((line) =>
        parseSmartValues(line).some((token) => token.name === "contact.firstName" && token.fallback === "there"),
      );
      expect({ context, personal: personal.length }).toEqual({ context, personal: 1 });
    }
  });

  it("weaves the audience, offer, offering, topic and problems into sentences in every framework", () => {
    let checked = 0;
    for (const values of briefs) {
      const fields = [
        values.topic,
        values.audience,
        values.offering,
        values.offer,
        ...(values.painPoints as string[]),
        profile.description,
      ]
        .map((value) => String(value ?? "").trim())
        .filter((value) => words(value) > 2);
      for (const framework of ["PAS", "AIDA", "BAB"]) {
        const html = emailBody(ctx(values), framework);
        const paragraphs = prose(html, ctaText(String(values.cta)) || "Find out more");
        expect(paragraphs.length).toBeGreaterThanOrEqual(2);
        for (const paragraph of paragraphs) {
          for (const field of fields) {
            expect({ framework, paragraph, field, pasted: pastedClause(paragraph, field) }).toEqual({
              framework,
              paragraph,
              field,
              pasted: false,
            });
            checked++;
          }
        }
        // A field typed as a list (";", "|", one per line) never appears as typed anywhere.
        const text = decode(html.replace(/<[^>]+>/g, " "));
        for (const field of fields.filter((value) => /[;|\n]|\s\/\s/.test(value)))
          expect({ framework, field, found: text.includes(field) }).toEqual({ framework, field, found: false });
        // The audience and the offer are there, inside the prose.
        const joined = paragraphs.join(" ").toLowerCase();
        const audienceStart = String(values.audience)
          .split(/[;|\n/]/)[0]!
          .trim()
          .toLowerCase();
        expect({ framework, audience: audienceStart, found: joined.includes(audienceStart) }).toEqual({
          framework,
          audience: audienceStart,
          found: true,
        });
        if (values.offer) expect(joined).toContain(String(values.offer).toLowerCase());
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it("reads the example from the issue as sentences", () => {
    const html = emailBody(
      ctx({
        topic: "Spring bike service week",
        audience: "weekend riders in north-west Leeds; e-bike owners",
        offering: "E-bike servicing",
        offer: "20% off your first service",
        painPoints: ["flat tyres on the way to work"],
      }),
      "PAS",
    );
    expect(html).toContain("we hear about it from weekend riders in north-west Leeds and e-bike owners all the time.");
    expect(html).toContain("our offer to you is <strong>20% off your first service</strong>.");
    expect(html).not.toContain("Leeds; e-bike owners");
  });
});
