// Every workflow of the spec run to completion through the gateway (REST /api/workflowsV2) with the
// offline engine: each result uses the inputs it was given and keeps its platform's limits. The
// research workflows answer their no-data codes (the test stack has no research provider) and the
// website audit reads a page from a local server (the test stack pins *.crafter.test to 127.0.0.1).
// Run with the test stack up: npm run test:integration -- services/workflows/test/all-workflows
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { GatewaySession, linkFrom, uniqueEmail, waitForEmail } from "@crafter/kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";

interface Result {
  id: string;
  content: string;
  format: string;
  sections?: Record<string, string[]>;
  data?: any;
  item?: string;
  itemIndex?: number;
  engine: string;
  framework?: string;
  note?: string;
}
interface Step {
  name: string;
  state: string;
  status: string;
  values: Record<string, unknown>;
  results: Result[];
  resultsFrom?: string;
}
interface Craft {
  craftId: string;
  state: string;
  currentStep: string;
  steps: Step[];
}

const session = new GatewaySession();
let page: Server;
let siteUrl = "";

const SITE = `<!doctype html><html lang="en"><head><title>Bikefix — Mobile bike repair in Leeds</title>
<meta name="description" content="We fix bikes at your home or office across Leeds, same week.">
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>Mobile bike repair</h1><h2>Services</h2><p>${"Punctures, brakes, gears and full services at your door. ".repeat(12)}</p>
<img src="/van.jpg"><a href="/book">Book</a></body></html>`;

beforeAll(async () => {
  page = createServer((req, res) => {
    if (req.url === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(SITE);
    } else {
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<h1>Not found</h1>");
    }
  });
  page.listen(0, "127.0.0.1");
  await once(page, "listening");
  siteUrl = `http://bikefix.crafter.test:${(page.address() as AddressInfo).port}/`;

  const email = uniqueEmail("content");
  await session.post("/auth/signup", { email, password: "password-123" });
  const token = linkFrom(await waitForEmail(email, "Verify your email"), "/verify").searchParams.get("token")!;
  await session.post("/auth/verify", { token });
  expect((await session.post("/auth/signin", { email, password: "password-123" })).status).toBe(200);
  const project = await session.post("/api/projects/createProject", {
    name: "Crumb & Co",
    description: "We bake slow-fermented sourdough in small batches in Leeds.",
    audience: "home bakers",
    keywords: ["sourdough starter", "wild yeast"],
    websiteUrl: "https://crumb.example.com",
  });
  expect(project.status).toBe(201);
});

afterAll(() => {
  page.closeAllConnections();
  page.close();
});

const stepOf = (craft: Craft, name: string) => craft.steps.find((step) => step.name === name)!;
const latest = (craft: Craft, name: string) => {
  const results = stepOf(craft, name).results;
  return results[results.length - 1]!;
};
const longest = (items: string[] | undefined) => Math.max(0, ...(items ?? []).map((item) => item.length));

/**
 * Creates a craft and completes its open steps in order with `values[step]` (view, skipped, media
 * and browser steps complete themselves) until the craft is Completed or a step fails.
 */
async function runWorkflow(
  workflowName: string,
  values: Record<string, Record<string, unknown>>,
): Promise<{ craft: Craft; error?: { status: number; code: string; step: string } }> {
  const created = await session.post<Craft>("/api/workflowsV2", { workflowName, craftName: `${workflowName} test` });
  expect(`${workflowName} ${created.status}`).toBe(`${workflowName} 201`);
  let craft = created.body.result;
  for (let guard = 0; craft.state !== "Completed" && guard < 20; guard++) {
    const stepName = craft.currentStep;
    const response = await session.put<{ craft: Craft }>(`/api/workflowsV2/${craft.craftId}/step/complete`, {
      stepName,
      values: values[stepName] ?? {},
    });
    if (response.status !== 200) {
      return { craft, error: { status: response.status, code: response.body.error?.code, step: stepName } };
    }
    craft = response.body.result.craft;
  }
  return { craft };
}

async function completed(workflowName: string, values: Record<string, Record<string, unknown>>): Promise<Craft> {
  const { craft, error } = await runWorkflow(workflowName, values);
  expect(error).toBeUndefined();
  expect(craft.state).toBe("Completed");
  for (const step of craft.steps) {
    for (const result of step.results) {
      if (!result.engine.startsWith("function:")) {
        expect(result.engine).toBe("offline");
        expect(result.note).toMatch(/^Drafted offline with the /);
      }
    }
  }
  return craft;
}

const starterKit = {
  offering: "Sourdough starter kit",
  audience: "home bakers",
  benefits: ["Bake your first loaf in a week", "Step-by-step video lessons"],
  features: ["Live rye starter", "Proofing basket"],
  painPoints: ["flat, dense loaves"],
  offer: "15% off your first kit",
  cta: "shopNow",
  url: "https://crumb.example.com/kit",
  keywords: ["sourdough starter", "wild yeast"],
};

describe("content workflows", () => {
  it("BlogWriter: title ideas, outline and draft from the topic", async () => {
    const craft = await completed("BlogWriter", {
      topic: { topic: "How to keep a sourdough starter alive", tone: "friendly" },
      outline: { length: "short" },
    });
    expect(latest(craft, "outline").content).toContain("<h1>");
    expect(latest(craft, "topic").content.toLowerCase()).toContain("sourdough starter");
  });

  it("GoogleAdsWriter: headlines ≤ 30, descriptions ≤ 90, paths ≤ 15, on the keywords", async () => {
    const craft = await completed("GoogleAdsWriter", { brief: starterKit });
    const { sections } = latest(craft, "brief");
    expect(sections!.headlines!.length).toBeGreaterThanOrEqual(3);
    expect(longest(sections!.headlines)).toBeLessThanOrEqual(30);
    expect(longest(sections!.descriptions)).toBeLessThanOrEqual(90);
    expect(longest(sections!.paths)).toBeLessThanOrEqual(15);
    expect(sections!.headlines).toContain("Sourdough Starter");
    expect(sections!.descriptions!.join(" ")).toContain("15% off your first kit");
  });

  it("FacebookAdsWriter: primary text ≤ 125, headline ≤ 40, description ≤ 30; the image step made on demand", async () => {
    const craft = await completed("FacebookAdsWriter", { brief: starterKit });
    const { sections } = latest(craft, "brief");
    expect(longest(sections!.primaryTexts)).toBeLessThanOrEqual(125);
    expect(longest(sections!.headlines)).toBeLessThanOrEqual(40);
    expect(longest(sections!.descriptions)).toBeLessThanOrEqual(30);
    expect(sections!.primaryTexts![0]).toContain("flat, dense loaves");
    expect(stepOf(craft, "image")).toMatchObject({ status: "completed", results: [] });
  });

  it("AdsWriter: LinkedIn limits (headline 70, text 150) from the features", async () => {
    const craft = await completed("AdsWriter", { brief: { ...starterKit, platform: "linkedin" } });
    const { sections } = latest(craft, "brief");
    expect(longest(sections!.headlines)).toBeLessThanOrEqual(70);
    expect(longest(sections!.bodies)).toBeLessThanOrEqual(150);
    expect(sections!.bodies!.join(" ").toLowerCase()).toContain("live rye starter");
  });

  it("SocialMediaPostWriter: an X post within 280 characters, image prompts, the image step made on demand", async () => {
    const craft = await completed("SocialMediaPostWriter", {
      brief: { ...starterKit, network: "x", topic: "Our new sourdough starter kit is here", tone: "playful" },
      imageIdeas: { subject: "A jar of bubbling starter", style: "modern", primaryColor: "#c0392b" },
    });
    const post = latest(craft, "brief").content;
    expect(post.length).toBeLessThanOrEqual(280);
    expect(post).toContain("#SourdoughStarter");
    expect(post).toContain("https://crumb.example.com/kit");
    expect(latest(craft, "imageIdeas").sections!.prompts![0]).toContain("A jar of bubbling starter");
    expect(stepOf(craft, "image")).toMatchObject({ status: "completed", results: [] });
  });

  it("SocialMediaPostWriter: Threads within 500 characters", async () => {
    const craft = await completed("SocialMediaPostWriter", {
      brief: {
        ...starterKit,
        network: "threads",
        topic: "Five reasons your starter is sluggish, and what to do about each one",
      },
      imageIdeas: {},
    });
    expect(latest(craft, "brief").content.length).toBeLessThanOrEqual(500);
  });

  it("EmailWriter: subject ≤ 60 and preheader ≤ 100, then a body led by them; attachments kept as the user adds them", async () => {
    const craft = await completed("EmailWriter", {
      brief: { ...starterKit, emailType: "promotion", topic: "Winter starter kit sale", tone: "friendly" },
      body: {},
    });
    const { sections } = latest(craft, "brief");
    expect(longest(sections!.subjects)).toBeLessThanOrEqual(60);
    expect(longest(sections!.preheaders)).toBeLessThanOrEqual(100);
    const body = latest(craft, "body").content;
    expect(body).toContain(`<strong>Subject:</strong> ${sections!.subjects![0]!.replace(/&/g, "&amp;")}`);
    expect(body).toContain("<em>Preheader:</em>");
    expect(body).toContain("<li>Bake your first loaf in a week</li>");
    // Done when it opens (not skipped, never "coming soon"): the user's files are added as they come.
    expect(stepOf(craft, "attachments")).toMatchObject({ status: "completed", results: [] });
    // An uploaded file (the web uploads it to media first) is kept in the step, one result each.
    const asset = { id: "a1b2c3", name: "price-list.pdf", url: "/api/media/assets/a1b2c3/download" };
    const attached = await session.put<Craft>(
      `/api/workflowsV2/${craft.craftId}/attachments/saveOrUpdateActionResult`,
      { content: asset.name, data: { asset } },
    );
    expect(attached.status).toBe(200);
    expect(stepOf(attached.body.result, "attachments").results).toEqual([
      expect.objectContaining({ content: "price-list.pdf", data: { asset } }),
    ]);
  });

  it("WebPageWriter: one section per outline item, the hero with the chosen headline", async () => {
    const craft = await completed("WebPageWriter", {
      brief: { ...starterKit, pageType: "landing" },
      outline: {
        headline: "Bake real bread this week",
        sections: ["Hero: the kit", "The problem", "What you get", "Call to action"],
      },
    });
    const sections = stepOf(craft, "write").results;
    expect(sections.map((result) => result.itemIndex)).toEqual([0, 1, 2, 3]);
    expect(sections[0]!.content).toContain("<h1>Bake real bread this week</h1>");
    expect(sections[1]!.content).toContain("<li>Flat, dense loaves</li>");
    expect(sections[2]!.content).toContain("Live rye starter");
  });

  it("PodcastWriter: a script per segment, the audio step made on demand", async () => {
    const craft = await completed("PodcastWriter", {
      episode: {
        topic: "Keeping a starter alive",
        host: "Sam",
        guest: "Ana",
        talkingPoints: ["Feeding schedules", "Reviving a sleepy starter"],
      },
    });
    const segments = latest(craft, "episode").sections!.segments!;
    expect(segments).toContain("Meet Ana");
    const scripts = stepOf(craft, "script").results;
    expect(scripts).toHaveLength(segments.length);
    expect(scripts.find((result) => result.item === "Feeding schedules")!.content).toContain(
      "Sam: Let's talk about feeding schedules.",
    );
    expect(stepOf(craft, "audio")).toMatchObject({ status: "completed", results: [] });
  });

  it("SmartEditor: a draft from the brief, inline commands on the selection, then the editor saves", async () => {
    const created = await session.post<Craft>("/api/workflowsV2", { workflowName: "SmartEditor" });
    const craftId = created.body.result.craftId;
    const brief = await session.put<{ craft: Craft }>(`/api/workflowsV2/${craftId}/step/complete`, {
      stepName: "brief",
      values: {
        title: "Winter opening hours",
        topic: "our winter hours",
        keyPoints: ["Closed on Mondays", "Late opening on Fridays"],
      },
    });
    expect(brief.status).toBe(200);
    expect(latest(brief.body.result.craft, "brief").content).toContain("- Closed on Mondays");
    // The editor opens with the draft; a command rewrites the selected text offline.
    expect(stepOf(brief.body.result.craft, "editor").values.document).toContain("Winter opening hours");
    const shorten = await session.post(`/api/workflowsV2/${craftId}/editor/generateInlineText`, {
      name: "shorten",
      params: {
        text: "We are closed in order to rest on Mondays. It is really very quiet then.\n\nWe open late on Fridays.",
      },
    });
    expect(shorten.status).toBe(200);
    expect(shorten.body.result.text).toBe("We are closed to rest on Mondays.\n\nWe open late on Fridays.");
    expect(shorten.body.result.meta.engine).toBe("offline");
    const unknown = await session.post(`/api/workflowsV2/${craftId}/editor/generateInlineText`, {
      name: "translate",
      params: {},
    });
    expect(unknown.body.error.code).toBe("CR_ERR_BAD_REQUEST");
    const done = await session.put<{ craft: Craft }>(`/api/workflowsV2/${craftId}/step/complete`, {
      stepName: "editor",
      values: { document: "Winter opening hours\n\nWe are closed on Mondays." },
    });
    expect(done.status).toBe(200);
    expect(done.body.result.craft.state).toBe("Completed");
    expect(stepOf(done.body.result.craft, "editor").values.document).toBe(
      "Winter opening hours\n\nWe are closed on Mondays.",
    );
  });
});

describe("business, offerings and research workflows", () => {
  it("BrandMessaging: the customer as hero, taglines ≤ 60", async () => {
    const craft = await completed("BrandMessaging", {
      foundation: { ...starterKit, businessName: "Crumb & Co", customerWant: "bake great bread at home" },
    });
    const { sections } = latest(craft, "foundation");
    expect(sections!.story![0]).toBe("Hero: Home bakers who want to bake great bread at home.");
    expect(longest(sections!.taglines)).toBeLessThanOrEqual(60);
  });

  it("BusinessInitiation: a Lean Canvas from the idea", async () => {
    const craft = await completed("BusinessInitiation", {
      idea: {
        idea: "Mobile bike repair",
        audience: "commuters",
        painPoints: ["bike shops are closed when I am free"],
        budget: 2000,
      },
    });
    const { sections } = latest(craft, "idea");
    expect(sections!.problem).toEqual(["Bike shops are closed when I am free."]);
    expect(sections!.revenue!.join(" ")).toContain("2000");
  });

  it("BusinessOptimization: ideas ranked by ICE", async () => {
    const craft = await completed("BusinessOptimization", {
      today: {
        focusArea: "marketing",
        painPoints: ["few repeat customers"],
        whatWorks: ["Instagram reels"],
        monthlyBudget: 300,
      },
    });
    expect(latest(craft, "today").sections!.priorities!.join(" ")).toContain("few repeat customers");
  });

  it("BusinessSetup: audits the website on a local server and drafts the profile from it", async () => {
    const craft = await completed("BusinessSetup", {
      start: { businessName: "Bikefix", hasWebsite: "yes" },
      audit: { websiteUrl: siteUrl },
      profile: { description: "", audience: "commuters", offerings: ["Puncture repair"] },
    });
    const audit = latest(craft, "audit");
    expect(audit.engine).toBe("function:websiteAudit");
    expect(audit.data.title).toBe("Bikefix — Mobile bike repair in Leeds");
    expect(audit.data.images).toMatchObject({ total: 1, missingAlt: 1 });
    expect(audit.content).toContain("- H1: Mobile bike repair");
    const { sections } = latest(craft, "profile");
    expect(sections!.fixes).toContain(
      "Add alt text to 1 image so screen readers and search engines can understand them.",
    );
    expect(sections!.offerings).toContain("Puncture repair");
    expect(sections!.name).toEqual(["Bikefix"]);
    expect(sections!.description).toEqual(["We fix bikes at your home or office across Leeds, same week."]);
  });

  it("BusinessSetup: without a website the audit step is skipped", async () => {
    const craft = await completed("BusinessSetup", {
      start: { businessName: "Crumb & Co", hasWebsite: "no" },
      profile: { audience: "home bakers" },
    });
    expect(stepOf(craft, "audit")).toMatchObject({ status: "skipped", results: [] });
    expect(latest(craft, "profile").sections!.name).toEqual(["Crumb & Co"]);
  });

  it("BusinessSetup: a missing page is PageNotFound and a bad address InvalidUrl", async () => {
    const missing = await runWorkflow("BusinessSetup", {
      start: { hasWebsite: "yes" },
      audit: { websiteUrl: `${siteUrl}gone` },
    });
    expect(missing.error).toMatchObject({ step: "audit", status: 404, code: "PageNotFound" });
    const invalid = await runWorkflow("BusinessSetup", {
      start: { hasWebsite: "yes" },
      audit: { websiteUrl: "http://localhost/" },
    });
    expect(invalid.error).toMatchObject({ step: "audit", status: 400 });
  });

  it("Campaign: the 4Ps with the dates, slogans ≤ 60, images made on demand", async () => {
    const craft = await completed("Campaign", {
      brief: {
        ...starterKit,
        campaignName: "Winter bake",
        goal: "Sell 200 kits before Christmas",
        startDate: "2026-12-01",
        endDate: "2026-12-24",
        channels: ["email", "instagram"],
        tone: "friendly",
      },
    });
    const { sections } = latest(craft, "brief");
    expect(sections!.summary).toContain("Objective: Sell 200 kits before Christmas.");
    expect(sections!.summary!.join(" ")).toContain("2026-12-01 to 2026-12-24");
    expect(longest(sections!.slogans)).toBeLessThanOrEqual(60);
    expect(stepOf(craft, "visuals")).toMatchObject({ status: "completed", results: [] });
  });

  it("AudienceSegmentDiscovery: segments in the region", async () => {
    const craft = await completed("AudienceSegmentDiscovery", { business: { ...starterKit, region: "Leeds" } });
    expect(latest(craft, "business").sections!.segments![0]).toContain("Home bakers in Leeds");
  });

  it("ProductIdeaList: as many ideas as asked for", async () => {
    const craft = await completed("ProductIdeaList", {
      brief: { themes: ["rye bread"], audience: "home bakers", count: 4 },
    });
    const ideas = latest(craft, "brief").sections!.ideas!;
    expect(ideas).toHaveLength(4);
    expect(ideas.join(" ")).toContain("rye bread");
  });

  it("ProductInfoWriter and ServiceInfoWriter: FAB pages, SEO title ≤ 60 and description ≤ 160", async () => {
    const product = await completed("ProductInfoWriter", {
      product: { ...starterKit, name: "Sourdough starter kit", shipping: "Free UK delivery over £30" },
      seo: {},
    });
    expect(latest(product, "product").content).toContain("<strong>Live rye starter</strong>");
    expect(latest(product, "product").content).toContain("Free UK delivery over £30");
    const seo = latest(product, "seo").sections!;
    expect(seo.seoTitle![0]!.length).toBeLessThanOrEqual(60);
    expect(seo.seoDescription![0]!.length).toBeLessThanOrEqual(160);

    const service = await completed("ServiceInfoWriter", {
      service: {
        name: "Sourdough masterclass",
        benefits: ["Bake with confidence"],
        features: ["Three-hour class", "Starter to take home"],
        terms: "48-hour cancellation",
        cta: "bookNow",
      },
      seo: {},
    });
    expect(latest(service, "service").content).toContain("48-hour cancellation");
    expect(latest(service, "seo").sections!.slug![0]).toBe("sourdough-masterclass-sourdough-starter");
  });

  it("ProductSetup and ServiceSetup: summary, SEO and slug; images made on demand", async () => {
    const product = await completed("ProductSetup", {
      details: {
        name: "Rye starter",
        description: "A lively rye starter, ready to bake.",
        features: ["Organic rye", "Feeding guide"],
      },
      summary: {},
    });
    expect(latest(product, "summary").sections!.slug![0]).toMatch(/^rye-starter/);
    expect(stepOf(product, "images")).toMatchObject({ status: "completed", results: [] });
    const service = await completed("ServiceSetup", {
      details: {
        name: "Bread subscription",
        description: "A fresh loaf every Friday.",
        benefits: ["Never run out of bread"],
      },
      summary: {},
    });
    expect(latest(service, "summary").sections!.points).toContain("Never run out of bread");
  });

  it("VisualIdentity and VisualDesigner: palette from the brand colour, prompts; images made on demand, the canvas waits for a design", async () => {
    const identity = await completed("VisualIdentity", {
      brand: { businessName: "Crumb & Co", primaryColor: "#c0392b", style: "classic", moods: ["warm"] },
    });
    expect(latest(identity, "brand").sections!.palette![0]).toMatch(/^Primary: #c0392b/);
    expect(stepOf(identity, "logo")).toMatchObject({ status: "completed", results: [] });
    // The design step completes with a saved design (design-step.int.test.ts); without one it waits.
    const designer = await runWorkflow("VisualDesigner", {
      brief: { format: "square", subject: "A loaf on a wooden board", style: "modern", primaryColor: "#c0392b" },
    });
    expect(designer.error).toEqual({ step: "design", status: 400, code: "CR_ERR_BAD_REQUEST" });
    expect(latest(designer.craft, "brief").sections!.prompts![0]).toContain("A loaf on a wooden board");
    expect(stepOf(designer.craft, "design")).toMatchObject({ status: "inprogress", results: [] });
  });

  it("TopicResearch: questions around the seed topics", async () => {
    const craft = await completed("TopicResearch", { seeds: { seedTopics: ["rye bread"], audience: "home bakers" } });
    expect(latest(craft, "seeds").sections!.topics!.some((topic) => topic.includes("rye bread"))).toBe(true);
  });

  it("KeywordResearch and CompetitorResearch: no provider configured → the no-data codes, never made-up data", async () => {
    const keywords = await runWorkflow("KeywordResearch", { seeds: { keywords: ["sourdough starter"] } });
    expect(keywords.error).toEqual({ step: "seeds", status: 422, code: "NoKeywordDataFound" });
    expect(stepOf(keywords.craft, "seeds").results).toEqual([]);
    const competitors = await runWorkflow("CompetitorResearch", { domain: { domain: "crumb.example.com" } });
    expect(competitors.error).toEqual({ step: "domain", status: 422, code: "NoCompetitorDataFound" });
  });

  it("lists all 25 workflows as available in the headers", async () => {
    const headers = (await session.get("/api/workflowsV2/headers")).body.result;
    expect(headers.names).toHaveLength(25);
    expect(headers.headers.every((header: { available: boolean }) => header.available)).toBe(true);
    // Tools are the workflows usable without a project.
    expect([...headers.toolsList].sort()).toEqual([
      "CompetitorResearch",
      "KeywordResearch",
      "SmartEditor",
      "TopicResearch",
      "VisualDesigner",
    ]);
  });
});
