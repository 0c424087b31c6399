import { AppError, appError, cleanDomain } from "@crafter/kit";
import type { CompetitorRow, KeywordRow } from "../generation/offline/research";
import type { FunctionAnswer, WorkflowFunction } from "./types";

/**
 * Keyword and competitor research go through a provider of search data. With none configured
 * the functions answer NoKeywordDataFound / NoCompetitorDataFound: they never make data up.
 */
export interface ResearchProvider {
  /** Keyword ideas for the seeds, with monthly search volume, CPC and competition (0–1). */
  keywords(query: { seeds: string[]; limit: number; signal: AbortSignal }): Promise<KeywordRow[]>;
  /** Domains competing with `domain` in organic search. */
  competitors(query: { domain: string; limit: number; signal: AbortSignal }): Promise<CompetitorRow[]>;
}

export interface DataForSeoOptions {
  /** e.g. https://api.dataforseo.com */
  baseUrl: string;
  login: string;
  password: string;
  /** DataForSEO location_name, e.g. "United Kingdom". */
  location: string;
  /** DataForSEO language_code, e.g. "en". */
  language: string;
  timeoutMs: number;
}

interface DfsResponse<T> {
  status_code?: number;
  status_message?: string;
  tasks?: { status_code?: number; status_message?: string; result?: { items?: T[] | null }[] | null }[];
}

interface DfsKeywordItem {
  keyword?: string;
  keyword_info?: { search_volume?: number | null; cpc?: number | null; competition?: number | null } | null;
}

interface DfsCompetitorItem {
  domain?: string;
  intersections?: number | null;
  full_domain_metrics?: { organic?: { etv?: number | null; count?: number | null } | null } | null;
}

/** Thrown when the provider answers with an error (not "no data"). */
export class ResearchProviderError extends Error {
  override name = "ResearchProviderError";
}

/**
 * A DataForSEO Labs adapter (v3 "live" endpoints, Basic auth, one task per request):
 * POST /v3/dataforseo_labs/google/keyword_ideas/live and …/competitors_domain/live. Status
 * 20000 is success; the items of the first task's first result are the rows.
 */
export function dataForSeoProvider(options: DataForSeoOptions): ResearchProvider {
  const auth = `Basic ${Buffer.from(`${options.login}:${options.password}`).toString("base64")}`;
  async function post<T>(path: string, task: Record<string, unknown>, signal: AbortSignal): Promise<T[]> {
    const response = await fetch(new URL(path, options.baseUrl), {
      method: "POST",
      headers: { authorization: auth, "content-type": "application/json" },
      body: JSON.stringify([{ location_name: options.location, language_code: options.language, ...task }]),
      signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)]),
    });
    if (!response.ok) throw new ResearchProviderError(`${path}: HTTP ${response.status}`);
    const body = (await response.json()) as DfsResponse<T>;
    if (body.status_code !== 20000)
      throw new ResearchProviderError(`${path}: ${body.status_code} ${body.status_message ?? ""}`);
    const first = body.tasks?.[0];
    // 40102 "No Search Results." is DataForSEO's way of saying there is no data: not an error.
    if (first?.status_code === 40102) return [];
    if (first?.status_code !== 20000)
      throw new ResearchProviderError(`${path}: task ${first?.status_code} ${first?.status_message ?? ""}`);
    return first.result?.[0]?.items ?? [];
  }
  return {
    async keywords({ seeds, limit, signal }) {
      const items = await post<DfsKeywordItem>(
        "/v3/dataforseo_labs/google/keyword_ideas/live",
        { keywords: seeds, limit },
        signal,
      );
      return items
        .filter((item) => item.keyword)
        .map((item) => ({
          keyword: item.keyword!,
          searchVolume: item.keyword_info?.search_volume ?? null,
          cpc: item.keyword_info?.cpc ?? null,
          competition: item.keyword_info?.competition ?? null,
        }));
    },
    async competitors({ domain, limit, signal }) {
      const items = await post<DfsCompetitorItem>(
        "/v3/dataforseo_labs/google/competitors_domain/live",
        { target: domain, limit, exclude_top_domains: true },
        signal,
      );
      return items
        .filter((item) => item.domain && item.domain !== domain)
        .map((item) => ({
          domain: item.domain!,
          commonKeywords: item.intersections ?? null,
          organicTraffic:
            item.full_domain_metrics?.organic?.etv != null ? Math.round(item.full_domain_metrics.organic.etv) : null,
        }));
    },
  };
}

/** Seeds from a comma-, newline- or "- "-list arg ("a, b\n- c" → ["a", "b", "c"]). */
function seedsOf(text: string | undefined): string[] {
  return [
    ...new Set(
      (text ?? "")
        .split(/[,\n]/)
        // A list arg renders as "- item" lines (prompt.ts renderTemplate): drop the bullets.
        .map((seed) =>
          seed
            .replace(/^\s*-\s+/, "")
            .trim()
            .toLowerCase(),
        )
        .filter(Boolean),
    ),
  ].slice(0, 20);
}

/** Provider failures other than "no data" are ours to report, not the user's input. */
function providerFailure(error: unknown, signal: AbortSignal): never {
  if (signal.aborted) throw signal.reason;
  if (error instanceof AppError) throw error;
  throw appError("InternalServerError");
}

/**
 * `keywordResearch`: `args.keywords` (comma-separated seeds), `args.limit` (default 30).
 * @throws NoKeywordDataFound with no provider, no seeds, or no rows; InternalServerError when the provider fails.
 */
export function keywordResearch(provider: ResearchProvider | undefined): WorkflowFunction {
  return async (args, ctx): Promise<FunctionAnswer> => {
    const seeds = seedsOf(args.keywords);
    if (!provider || seeds.length === 0) throw appError("NoKeywordDataFound");
    const limit = Math.min(100, Math.max(1, Number(args.limit) || 30));
    let rows: KeywordRow[];
    try {
      rows = await provider.keywords({ seeds, limit, signal: ctx.signal });
    } catch (error) {
      providerFailure(error, ctx.signal);
    }
    if (rows.length === 0) throw appError("NoKeywordDataFound");
    const lines = rows.map(
      (row) =>
        `- ${row.keyword}: ${row.searchVolume ?? "?"} searches/month${row.competition != null ? `, competition ${Math.round(row.competition * 100)}%` : ""}${row.cpc != null ? `, CPC ${row.cpc.toFixed(2)}` : ""}`,
    );
    return {
      content: [`## Keywords for ${seeds.join(", ")}`, ...lines].join("\n"),
      data: { seeds, keywords: rows as unknown as FunctionAnswer["data"][] } as FunctionAnswer["data"],
    };
  };
}

/**
 * `competitorResearch`: `args.domain` (a URL or domain), `args.limit` (default 10).
 * @throws NoCompetitorDataFound with no provider, no domain, or no rows; InternalServerError when the provider fails.
 */
export function competitorResearch(provider: ResearchProvider | undefined): WorkflowFunction {
  return async (args, ctx): Promise<FunctionAnswer> => {
    const domain = cleanDomain(args.domain ?? "")
      .split("/")[0]!
      .toLowerCase();
    if (!provider || !domain) throw appError("NoCompetitorDataFound");
    const limit = Math.min(50, Math.max(1, Number(args.limit) || 10));
    let rows: CompetitorRow[];
    try {
      rows = await provider.competitors({ domain, limit, signal: ctx.signal });
    } catch (error) {
      providerFailure(error, ctx.signal);
    }
    if (rows.length === 0) throw appError("NoCompetitorDataFound");
    const lines = rows.map(
      (row) =>
        `- ${row.domain}${row.organicTraffic != null ? `: ~${row.organicTraffic} visits/month from search` : ""}${row.commonKeywords != null ? `, ${row.commonKeywords} keywords in common` : ""}`,
    );
    return {
      content: [`## Competitors of ${domain}`, ...lines].join("\n"),
      data: { domain, competitors: rows as unknown as FunctionAnswer["data"][] } as FunctionAnswer["data"],
    };
  };
}
