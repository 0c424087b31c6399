import type { ComposeContext } from "../../domain/prompt";
import { aud, briefOf, unique } from "./brief";
import { capitalize, lowerFirst, titleCase } from "./text";

/**
 * Offline research drafts. Topic research expands the user's seed topics into the questions
 * people search (who/what/why/how/best/vs, as question-research tools group them) and content
 * pillars. Keyword and competitor plans only ever read data a provider returned in an earlier
 * step — they never invent volumes or competitors.
 */

const QUESTION_FORMS = [
  (t: string) => `What is ${t} and why does it matter?`,
  (t: string) => `How to get started with ${t}`,
  (t: string) => `How much does ${t} cost?`,
  (t: string, a: string) => `Is ${t} worth it for ${a}?`,
  (t: string) => `Common mistakes with ${t} (and how to avoid them)`,
  (t: string) => `Best ${t} tips for beginners`,
  (t: string) => `${capitalize(t)} vs doing it yourself: which is right for you?`,
  (t: string) => `Why does ${t} take so long?`,
];

export function topicIdeas(ctx: ComposeContext) {
  const b = briefOf(ctx, "topics");
  const seeds = unique([...b.list("seedTopics"), ...b.keywords, b.topic]).slice(0, 5);
  const per = Math.max(2, Math.ceil(8 / seeds.length));
  const topics = seeds.flatMap((seed, s) =>
    Array.from({ length: per }, (_, i) =>
      QUESTION_FORMS[(s * 3 + i) % QUESTION_FORMS.length]!(lowerFirst(seed), aud(b)),
    ),
  );
  return {
    topics: unique(topics).slice(0, 10),
    pillars: seeds.map((seed) => `${titleCase(seed)}: a complete guide linking every post on ${lowerFirst(seed)}`),
    angles: unique([
      `A story from a customer who solved ${b.pains[0] ?? seeds[0]} with ${b.business || "your help"}`,
      `Behind the scenes: how ${b.business || "you"} approach ${seeds[0]}`,
      `A checklist ${aud(b)} can print and use`,
      `Myths about ${seeds[0]}, busted`,
    ]),
  };
}

/** One keyword row as the research provider returns it (see functions/research-provider.ts). */
export interface KeywordRow {
  keyword: string;
  searchVolume?: number | null;
  cpc?: number | null;
  competition?: number | null;
}

const INTENTS: [string, RegExp][] = [
  ["Buy now (transactional)", /\b(buy|price|prices|cost|cheap|deal|discount|order|near me|shop|hire|book)\b/i],
  ["Comparing (commercial)", /\b(best|top|vs|versus|review|reviews|compare|alternative|alternatives)\b/i],
  ["Learning (informational)", /\b(how|what|why|when|guide|tips|ideas|tutorial|learn|diy)\b/i],
];

export function intentOf(keyword: string): string {
  return INTENTS.find(([, pattern]) => pattern.test(keyword))?.[0] ?? "Topic (general)";
}

/** The keywords of an earlier research step as clusters by search intent, best opportunities first. */
export function keywordPlan(ctx: ComposeContext) {
  const rows = dataRows<KeywordRow>(ctx, "keywords");
  const b = briefOf(ctx, "keywordPlan");
  const score = (row: KeywordRow) => (row.searchVolume ?? 0) / (1 + 10 * (row.competition ?? 0.5));
  const ranked = [...rows].sort((x, y) => score(y) - score(x));
  const describe = (row: KeywordRow) =>
    `${row.keyword}${row.searchVolume != null ? ` — ${row.searchVolume.toLocaleString("en-US")} searches/month` : ""}${row.competition != null ? `, competition ${Math.round(row.competition * 100)}%` : ""}${row.cpc != null ? `, CPC ${row.cpc.toFixed(2)}` : ""}`;
  const clusters = new Map<string, string[]>();
  for (const row of ranked) {
    const intent = intentOf(row.keyword);
    clusters.set(intent, [...(clusters.get(intent) ?? []), row.keyword]);
  }
  return {
    opportunities: ranked.slice(0, 5).map(describe),
    clusters: [...clusters].map(([intent, keywords]) => `${intent}: ${keywords.slice(0, 6).join(", ")}`),
    actions: ranked.slice(0, 3).map((row) => {
      const intent = intentOf(row.keyword);
      const page = intent.startsWith("Buy")
        ? "a product or service page"
        : intent.startsWith("Comparing")
          ? "a comparison page"
          : "a blog post";
      return `Write ${page} for "${row.keyword}" aimed at ${aud(b)}.`;
    }),
  };
}

/** One competitor row as the research provider returns it. */
export interface CompetitorRow {
  domain: string;
  commonKeywords?: number | null;
  organicTraffic?: number | null;
  topKeywords?: string[];
}

/** Competitors of an earlier research step, with where the user can stand out. */
export function competitorInsights(ctx: ComposeContext) {
  const rows = dataRows<CompetitorRow>(ctx, "competitors");
  const b = briefOf(ctx, "competitors");
  const strengths = b.list("differentiators");
  return {
    competitors: rows
      .slice(0, 8)
      .map(
        (row) =>
          `${row.domain}${row.organicTraffic != null ? ` — ~${row.organicTraffic.toLocaleString("en-US")} visits/month from search` : ""}${row.commonKeywords != null ? `, ${row.commonKeywords} keywords in common` : ""}`,
      ),
    theirKeywords: unique(rows.flatMap((row) => row.topKeywords ?? [])).slice(0, 10),
    standOut: unique([
      ...strengths.map((item) => `Lead with what they do not say: ${lowerFirst(item)}.`),
      `Write for ${aud(b)} specifically — broad competitors rarely do.`,
      rows[0] ? `Answer the questions ${rows[0].domain} ranks for, better and more specifically.` : "",
    ]),
  };
}

/** The `data[key]` rows of the latest FunctionCaller result of the craft. */
function dataRows<T>(ctx: ComposeContext, key: string): T[] {
  for (const step of Object.values(ctx.steps).reverse()) {
    const data = (step as { data?: unknown }).data as Record<string, unknown> | undefined;
    if (data && Array.isArray(data[key])) return data[key] as T[];
  }
  return [];
}
