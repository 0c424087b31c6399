import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describeError } from "@crafter/kit";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { buildFunctions } from "../src/functions/index";
import { competitorResearch, dataForSeoProvider, keywordResearch } from "../src/functions/research-provider";
import type { FunctionContext } from "../src/functions/types";
import { type AuditSummary, auditHtml, websiteAudit } from "../src/functions/website-audit";

/** A small local site that speaks plain HTTP: pages, a redirect, 404/410/500, a slow page, a PDF. */
const GOOD_PAGE = `<!doctype html>
<html lang="en-GB"><head>
<meta charset="utf-8">
<title>Crumb &amp; Co — Sourdough bakery in Leeds</title>
<meta name="description" content="Slow-fermented sourdough baked in small batches in Leeds. Order online for collection or local delivery.">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="canonical" href="/">
<link rel="icon" href="/favicon.ico">
<meta property="og:title" content="Crumb &amp; Co">
<meta property="og:description" content="Sourdough bakery in Leeds">
<meta property="og:image" content="https://crumb.example.com/og.jpg">
<meta name="twitter:card" content="summary_large_image">
<script type="application/ld+json">{"@type":"Bakery"}</script>
<style>.x{}</style>
</head><body>
<h1>Sourdough, baked slowly</h1>
<p>${"We bake real bread with flour, water and salt. ".repeat(40)}</p>
<h2>Our loaves</h2><h3>Country white</h3>
<img src="/loaf.jpg" alt="A country loaf"><img src="/rye.jpg"><img src="/spacer.gif" alt="">
<a href="/shop">Shop</a> <a href="https://www.crumb.example.com/about">About</a>
<a href="https://instagram.com/crumb" rel="nofollow noopener">Instagram</a> <a href="mailto:hi@crumb.example.com">Email</a>
<script>console.log("not counted as words")</script>
</body></html>`;

const BARE_PAGE = "<html><body><p>Hello</p><img src=a.png><h1>One</h1><h1>Two</h1></body></html>";

let server: Server;
let port = 0;
const hanging: ServerResponse[] = [];

function route(req: IncomingMessage, res: ServerResponse) {
  const html = (body: string, status = 200) => {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
    res.end(body);
  };
  switch (req.url) {
    case "/":
      return html(GOOD_PAGE);
    case "/bare":
      return html(BARE_PAGE);
    case "/moved":
      res.writeHead(301, { location: "/" });
      return void res.end();
    case "/to-private":
      res.writeHead(302, { location: `http://127.0.0.11:${port}/` });
      return void res.end();
    case "/gone":
      return html("<h1>Gone</h1>", 410);
    case "/broken":
      return html("<h1>Oops</h1>", 500);
    case "/slow":
      hanging.push(res); // never answers
      return;
    case "/brochure.pdf":
      res.writeHead(200, { "content-type": "application/pdf" });
      return void res.end("%PDF-1.4");
    case "/huge":
      res.writeHead(200, { "content-type": "text/html" });
      res.write(`<html><head><title>Huge page for testing</title></head><body><h1>Big</h1>`);
      res.end(`<p>${"word ".repeat(50_000)}</p></body></html>`);
      return;
    default:
      return html("<h1>Not found</h1>", 404);
  }
}

beforeAll(async () => {
  server = createServer(route);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  server.close();
});

const context = (signal = new AbortController().signal): FunctionContext => ({ userId: "u1", craftId: "c1", signal });
const site = (path: string) => `http://shop.crafter.test:${port}${path}`;
const audit = (options: { timeoutMs?: number; maxBytes?: number } = {}) =>
  websiteAudit({
    timeoutMs: options.timeoutMs ?? 5000,
    maxBytes: options.maxBytes ?? 1_000_000,
    resolve: { "*.crafter.test": "127.0.0.1" },
  });

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return describeError(error).code;
  }
  return "no error";
}

describe("websiteAudit against a local site", () => {
  it("reports title, description, headings, images, links, words, canonical, lang, Open Graph and viewport", async () => {
    const answer = await audit()({ url: site("/") }, context());
    const data = answer.data as unknown as AuditSummary;
    expect(data.title).toBe("Crumb & Co — Sourdough bakery in Leeds");
    expect(data.metaDescription).toMatch(/^Slow-fermented sourdough/);
    expect(data.lang).toBe("en-GB");
    expect(data.canonical).toBe(`http://shop.crafter.test:${port}/`);
    expect(data.viewport).toBe("width=device-width, initial-scale=1");
    expect(data.charset).toBe("utf-8");
    expect(data.favicon).toBe(`http://shop.crafter.test:${port}/favicon.ico`);
    expect(data.headings).toEqual([
      { level: 1, text: "Sourdough, baked slowly" },
      { level: 2, text: "Our loaves" },
      { level: 3, text: "Country white" },
    ]);
    expect(data.images).toEqual({
      total: 3,
      missingAlt: 1,
      emptyAlt: 1,
      missingAltSources: [`http://shop.crafter.test:${port}/rye.jpg`],
    });
    expect(data.links).toEqual({
      total: 3,
      internal: 1,
      external: 2,
      nofollow: 1,
      externalDomains: ["www.crumb.example.com", "instagram.com"],
    });
    expect(data.openGraph).toEqual({
      title: "Crumb & Co",
      description: "Sourdough bakery in Leeds",
      image: "https://crumb.example.com/og.jpg",
    });
    expect(data.twitter).toEqual({ card: "summary_large_image" });
    expect(data.structuredDataBlocks).toBe(1);
    expect(data.wordCount).toBeGreaterThan(350);
    expect(data.wordCount).toBeLessThan(380);
    expect(data.issues).toEqual(["Add alt text to 1 image so screen readers and search engines can understand them."]);
    expect(answer.content).toContain("- Title (38 characters): Crumb & Co — Sourdough bakery in Leeds");
    expect(answer.content).toContain("- H1: Sourdough, baked slowly");
    expect(answer.content).toContain("## Issues\n- Add alt text to 1 image");
  });

  it("lists what a bare page is missing", async () => {
    const data = (await audit()({ url: site("/bare") }, context())).data as unknown as AuditSummary;
    expect(data.issues).toEqual([
      "Add a <title>: it is the headline of your page in search results.",
      "Add a meta description (about 150–160 characters) so search results show your own summary.",
      "Use one <h1> per page (found 2).",
      "Add alt text to 1 image so screen readers and search engines can understand them.",
      'Set the page language, e.g. <html lang="en">.',
      'Add <meta name="viewport" content="width=device-width, initial-scale=1"> so the page fits phones.',
      "Add a canonical link so search engines know the preferred address of this page.",
      "Add Open Graph tags (og:title, og:description, og:image) so shared links show a proper preview.",
      "Add more useful text: the page has 3 words; pages under 300 words rarely rank.",
    ]);
  });

  it("follows redirects and reports the final address", async () => {
    const data = (await audit()({ url: site("/moved") }, context())).data as unknown as AuditSummary;
    expect(data.finalUrl).toBe(site("/"));
    expect(data.url).toBe(site("/moved"));
  });

  it("reads at most maxBytes and says the page was cut", async () => {
    const data = (await audit({ maxBytes: 4096 })({ url: site("/huge") }, context())).data as unknown as AuditSummary;
    expect(data.bytes).toBe(4096);
    expect(data.truncated).toBe(true);
    expect(data.title).toBe("Huge page for testing");
    expect(data.issues).toContain("The page is very large; only its beginning was audited.");
  });

  it("maps failures to the spec's codes", async () => {
    expect(await codeOf(audit()({ url: "not a url" }, context()))).toBe("InvalidUrl");
    expect(await codeOf(audit()({ url: "ftp://files.example.com/a" }, context()))).toBe("InvalidUrl");
    expect(await codeOf(audit()({ url: "" }, context()))).toBe("InvalidUrl");
    expect(await codeOf(audit()({ url: site("/missing") }, context()))).toBe("PageNotFound");
    expect(await codeOf(audit()({ url: site("/gone") }, context()))).toBe("PageNotFound");
    expect(await codeOf(audit()({ url: site("/broken") }, context()))).toBe("UnableToReadWebPage");
    expect(await codeOf(audit()({ url: site("/brochure.pdf") }, context()))).toBe("UnableToReadWebPage");
    expect(await codeOf(audit({ timeoutMs: 300 })({ url: site("/slow") }, context()))).toBe("UnableToReadWebPage");
    // Not pinned, so resolved by DNS: a name that does not exist.
    expect(await codeOf(audit()({ url: `http://nowhere.invalid-host.test:${port}/` }, context()))).toBe(
      "UnableToReadWebPage",
    );
  });

  it("stops with the caller's reason when the action is cancelled", async () => {
    const controller = new AbortController();
    const running = audit()({ url: site("/slow") }, context(controller.signal));
    controller.abort(new Error("cancelled by the user"));
    await expect(running).rejects.toThrow("cancelled by the user");
  });

  it("refuses non-public addresses in any notation, given or redirected to, with InvalidUrl", async () => {
    for (const host of ["127.0.0.10", "2130706442", "0x7f00000a", "[::ffff:7f00:a]", "localhost"]) {
      expect(`${host} ${await codeOf(audit()({ url: `http://${host}:${port}/` }, context()))}`).toBe(
        `${host} InvalidUrl`,
      );
    }
    const redirect = site(`/to-private`);
    expect(await codeOf(audit()({ url: redirect }, context()))).toBe("InvalidUrl");
  });

  it("audits HTML it is given without fetching (CR_ERR_WEBSITE_AUDIT is for parser failures)", () => {
    const data = auditHtml("<title>x</title>", {
      url: "https://a.example.com/",
      finalUrl: "https://a.example.com/",
      status: 200,
      bytes: 16,
      truncated: false,
    });
    expect(data.title).toBe("x");
    expect(data.issues[0]).toBe("Make the title more descriptive (it has only 1 characters).");
  });
});

/** A local server speaking the DataForSEO Labs v3 shape. */
describe("research through a DataForSEO-shaped provider", () => {
  let api: Server;
  let base = "";
  const seen: { path: string; auth: string; body: unknown }[] = [];
  let mode: "data" | "empty" | "noResults" | "error" = "data";

  beforeAll(async () => {
    api = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      seen.push({
        path: req.url ?? "",
        auth: req.headers.authorization ?? "",
        body: JSON.parse(Buffer.concat(chunks).toString() || "null"),
      });
      const reply = (body: unknown) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (mode === "error") return reply({ status_code: 40100, status_message: "You are not authorized.", tasks: [] });
      const task = (items: unknown[] | null, status = 20000) => ({
        status_code: 20000,
        status_message: "Ok.",
        tasks: [
          {
            status_code: status,
            status_message: status === 20000 ? "Ok." : "No Search Results.",
            result: status === 20000 ? [{ items_count: items?.length ?? 0, items }] : null,
          },
        ],
      });
      if (mode === "noResults") return reply(task(null, 40102));
      if (mode === "empty") return reply(task(null));
      if (req.url?.includes("keyword_ideas")) {
        return reply(
          task([
            { keyword: "sourdough starter", keyword_info: { search_volume: 12100, cpc: 0.41, competition: 0.12 } },
            { keyword: "buy sourdough starter", keyword_info: { search_volume: 880, cpc: 1.2, competition: 0.86 } },
            { keyword: "sourdough starter kit", keyword_info: null },
          ]),
        );
      }
      return reply(
        task([
          { domain: "crumb.example.com", intersections: 900 },
          {
            domain: "breadclub.example",
            intersections: 54,
            full_domain_metrics: { organic: { etv: 4321.6, count: 800 } },
          },
        ]),
      );
    });
    api.listen(0, "127.0.0.1");
    await once(api, "listening");
    base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    api.closeAllConnections();
    api.close();
  });

  const provider = () =>
    dataForSeoProvider({
      baseUrl: base,
      login: "me",
      password: "secret",
      location: "United Kingdom",
      language: "en",
      timeoutMs: 5000,
    });

  it("returns keyword rows from keyword_ideas/live with Basic auth and the market", async () => {
    mode = "data";
    seen.length = 0;
    const answer = await keywordResearch(provider())({ keywords: "Sourdough starter, rye bread" }, context());
    expect(seen[0]!.path).toBe("/v3/dataforseo_labs/google/keyword_ideas/live");
    expect(seen[0]!.auth).toBe(`Basic ${Buffer.from("me:secret").toString("base64")}`);
    expect(seen[0]!.body).toEqual([
      { location_name: "United Kingdom", language_code: "en", keywords: ["sourdough starter", "rye bread"], limit: 30 },
    ]);
    expect(answer.data).toEqual({
      seeds: ["sourdough starter", "rye bread"],
      keywords: [
        { keyword: "sourdough starter", searchVolume: 12100, cpc: 0.41, competition: 0.12 },
        { keyword: "buy sourdough starter", searchVolume: 880, cpc: 1.2, competition: 0.86 },
        { keyword: "sourdough starter kit", searchVolume: null, cpc: null, competition: null },
      ],
    });
    expect(answer.content).toContain("- sourdough starter: 12100 searches/month, competition 12%, CPC 0.41");
  });

  it("reads seeds rendered as a list (a chipText alone on its template line gives '- item' lines)", async () => {
    mode = "data";
    seen.length = 0;
    await keywordResearch(provider())({ keywords: "- Sourdough starter\n- rye bread\n- rye bread" }, context());
    expect((seen[0]!.body as { keywords: string[] }[])[0]!.keywords).toEqual(["sourdough starter", "rye bread"]);
  });

  it("returns competitors from competitors_domain/live, without the domain itself", async () => {
    mode = "data";
    seen.length = 0;
    const answer = await competitorResearch(provider())({ domain: "https://www.crumb.example.com/about" }, context());
    expect(seen[0]!.path).toBe("/v3/dataforseo_labs/google/competitors_domain/live");
    expect((seen[0]!.body as { target: string }[])[0]!.target).toBe("crumb.example.com");
    expect(answer.data).toEqual({
      domain: "crumb.example.com",
      competitors: [{ domain: "breadclub.example", commonKeywords: 54, organicTraffic: 4322 }],
    });
  });

  it("answers the no-data codes for empty results, and without a provider never asks anyone", async () => {
    mode = "empty";
    expect(await codeOf(keywordResearch(provider())({ keywords: "zzqx" }, context()))).toBe("NoKeywordDataFound");
    mode = "noResults";
    expect(await codeOf(competitorResearch(provider())({ domain: "tiny.example" }, context()))).toBe(
      "NoCompetitorDataFound",
    );
    seen.length = 0;
    expect(await codeOf(keywordResearch(undefined)({ keywords: "bread" }, context()))).toBe("NoKeywordDataFound");
    expect(await codeOf(competitorResearch(undefined)({ domain: "crumb.example.com" }, context()))).toBe(
      "NoCompetitorDataFound",
    );
    expect(await codeOf(keywordResearch(provider())({ keywords: " , " }, context()))).toBe("NoKeywordDataFound");
    expect(seen).toEqual([]);
  });

  it("reports a provider failure as ours, not as missing data", async () => {
    mode = "error";
    expect(await codeOf(keywordResearch(provider())({ keywords: "bread" }, context()))).toBe("InternalServerError");
  });

  it("buildFunctions has no provider unless RESEARCH_PROVIDER_URL and credentials are set", async () => {
    const functions = buildFunctions({
      WEBSITE_AUDIT_TIMEOUT_MS: 1000,
      WEBSITE_AUDIT_MAX_BYTES: 1000,
      WEBSITE_AUDIT_RESOLVE: {},
      RESEARCH_PROVIDER_URL: undefined,
      RESEARCH_PROVIDER_LOGIN: undefined,
      RESEARCH_PROVIDER_PASSWORD: undefined,
      RESEARCH_LOCATION: "United States",
      RESEARCH_LANGUAGE: "en",
      RESEARCH_TIMEOUT_MS: 1000,
    });
    expect(Object.keys(functions).sort()).toEqual(["competitorResearch", "keywordResearch", "websiteAudit"]);
    seen.length = 0;
    expect(await codeOf(functions.keywordResearch!({ keywords: "bread" }, context()))).toBe("NoKeywordDataFound");
    expect(seen).toEqual([]);
  });
});
