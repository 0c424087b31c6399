import type { JsonValue } from "@bufbuild/protobuf";
import { describe, expect, it } from "@jest/globals";
import type { ComposeContext } from "../src/domain/prompt";
import type { Values } from "../src/domain/types";
import { adCopy, googleAds, metaAds } from "../src/generation/offline/ads";
import { clip, fitFirst, hashtag } from "../src/generation/offline/brief";
import {
  audienceSegments,
  brandMessaging,
  businessOptimization,
  businessPlan,
  businessProfile,
  campaignPlan,
} from "../src/generation/offline/business";
import { COMPOSERS } from "../src/generation/offline/composers";
import { documentDraft, editText, sentences } from "../src/generation/offline/editor";
import { AD_PLATFORMS, EMAIL, GOOGLE_ADS, META_ADS, SEO, SOCIAL_NETWORKS } from "../src/generation/offline/limits";
import { offeringPage, offeringSummary, productIdeas } from "../src/generation/offline/offerings";
import { podcastPlan, podcastSegment, webPagePlan, webPageSection } from "../src/generation/offline/pages";
import { competitorInsights, intentOf, keywordPlan, topicIdeas } from "../src/generation/offline/research";
import { emailBody, emailHeaders, socialPost } from "../src/generation/offline/social";
import { contrast, imagePrompts, palette, visualIdentity } from "../src/generation/offline/visual";
import { profile } from "./fixtures";

function ctx(
  values: Values,
  extra: Partial<ComposeContext> & { item?: string; itemIndex?: number } = {},
): ComposeContext {
  return { values, steps: {}, profile, labels: {}, ...extra } as ComposeContext;
}

const starterKit: Values = {
  offering: "Sourdough starter kit",
  audience: "home bakers",
  keywords: ["sourdough starter", "wild yeast"],
  benefits: ["Bake your first loaf in a week", "Step-by-step video lessons", "Starter guaranteed alive"],
  features: ["Live rye starter", "Proofing basket", "Bench scraper"],
  painPoints: ["flat, dense loaves", "starters that die"],
  offer: "15% off your first kit",
  cta: "shopNow",
};

const longest = (items: string[]) => Math.max(...items.map((item) => item.length));

describe("text fitting", () => {
  it("shortens by whole phrases only, or leaves the line out", () => {
    const text = "Bake your first loaf in a week, with the whole family";
    expect(clip(text, 30)).toBe("Bake your first loaf in a week");
    expect(clip(text, 20)).toBe("");
    expect(clip(text, 60)).toBe(text);
    expect(fitFirst(["much too long for thirty characters here", "Short one"], 30)).toBe("Short one");
    expect(hashtag("sourdough starter")).toBe("#SourdoughStarter");
  });
});

describe("Google ads (AIDA)", () => {
  const ad = googleAds(ctx(starterKit));
  it("keeps headlines ≤ 30, descriptions ≤ 90 and paths ≤ 15, within Google's counts", () => {
    expect(longest(ad.headlines)).toBeLessThanOrEqual(GOOGLE_ADS.headline);
    expect(longest(ad.descriptions)).toBeLessThanOrEqual(GOOGLE_ADS.description);
    expect(longest(ad.paths)).toBeLessThanOrEqual(GOOGLE_ADS.path);
    expect(ad.headlines.length).toBeGreaterThanOrEqual(3);
    expect(ad.headlines.length).toBeLessThanOrEqual(15);
    expect(ad.descriptions.length).toBeGreaterThanOrEqual(2);
    expect(ad.descriptions.length).toBeLessThanOrEqual(4);
  });
  it("uses the keywords, the offering, the offer and the call to action", () => {
    const all = [...ad.headlines, ...ad.descriptions].join("\n");
    expect(all).toContain("Sourdough Starter");
    expect(all).toContain("Sourdough Starter Kit");
    expect(all).toContain("15% off your first kit");
    expect(all).toContain("Shop now");
    // Paths are whole words that fit in 15 characters, never a cut one.
    expect(ad.paths[0]).toBe("sourdough");
  });
  it("stays within limits when every input is long", () => {
    const long = googleAds(
      ctx({
        offering: "An extraordinarily comprehensive artisanal fermentation starter collection",
        audience: "ambitious weekend home bakers across the whole of the United Kingdom",
        keywords: ["the best sourdough starter kit you can buy online today"],
        benefits: ["A benefit that is far longer than any headline could ever hold in thirty characters"],
      }),
    );
    expect(longest(long.headlines)).toBeLessThanOrEqual(30);
    expect(longest(long.descriptions)).toBeLessThanOrEqual(90);
    expect(long.headlines.length).toBeGreaterThanOrEqual(3);
  });
});

describe("Meta ads (PAS) and generic ads (FAB)", () => {
  it("keeps primary text ≤ 125, headline ≤ 40 and description ≤ 30, with the pain point and offer", () => {
    const ad = metaAds(ctx(starterKit));
    expect(longest(ad.primaryTexts)).toBeLessThanOrEqual(META_ADS.primaryText);
    expect(longest(ad.headlines)).toBeLessThanOrEqual(META_ADS.headline);
    expect(longest(ad.descriptions)).toBeLessThanOrEqual(META_ADS.description);
    expect(ad.primaryTexts[0]).toContain("flat, dense loaves");
    expect(ad.primaryTexts.join(" ")).toContain("15% off your first kit");
  });
  it("writes for the chosen platform's limits", () => {
    for (const platform of Object.keys(AD_PLATFORMS) as (keyof typeof AD_PLATFORMS)[]) {
      const ad = adCopy(ctx({ ...starterKit, platform }));
      expect(ad.platform).toBe(platform);
      expect(longest(ad.headlines)).toBeLessThanOrEqual(AD_PLATFORMS[platform].headline);
      expect(longest(ad.bodies)).toBeLessThanOrEqual(AD_PLATFORMS[platform].body);
      expect(ad.bodies.join(" ").toLowerCase()).toContain("proofing basket");
    }
  });
});

describe("social posts", () => {
  const longPost: Values = {
    ...starterKit,
    topic: "Why a lively sourdough starter is the secret to an open crumb and a crisp crust every single time",
    keywords: ["sourdough starter", "wild yeast", "bread baking", "home baking", "artisan bread", "rye"],
    url: "https://crumb.example.com/kits/sourdough-starter",
  };
  for (const network of Object.keys(SOCIAL_NETWORKS) as (keyof typeof SOCIAL_NETWORKS)[]) {
    for (const framework of ["AIDA", "PAS", "BAB"]) {
      it(`${network} ${framework}: within ${SOCIAL_NETWORKS[network].maxChars} characters, with the link and hashtags`, () => {
        const post = socialPost(ctx({ ...longPost, network }), framework);
        expect(post.length).toBeLessThanOrEqual(SOCIAL_NETWORKS[network].maxChars);
        expect(post).toContain("https://crumb.example.com/kits/sourdough-starter");
        expect(post).toContain("#SourdoughStarter");
        expect(post.match(/#\w+/g)!.length).toBeLessThanOrEqual(SOCIAL_NETWORKS[network].hashtags);
      });
    }
  }
  it("uses the benefits on roomy networks and the pain point with PAS", () => {
    expect(socialPost(ctx({ ...starterKit, network: "linkedin" }), "AIDA")).toContain("Step-by-step video lessons");
    expect(socialPost(ctx({ ...starterKit, network: "linkedin" }), "PAS").toLowerCase()).toContain(
      "flat, dense loaves",
    );
  });
});

describe("email", () => {
  it("writes subjects ≤ 60 and preheaders ≤ 100 from the inputs", () => {
    const headers = emailHeaders(ctx(starterKit));
    expect(headers.subjects.length).toBeGreaterThanOrEqual(3);
    expect(longest(headers.subjects)).toBeLessThanOrEqual(EMAIL.subject);
    expect(longest(headers.preheaders)).toBeLessThanOrEqual(EMAIL.preheader);
    expect(headers.subjects[0]).toContain("15% off your first kit");
  });
  it("leads the body with the chosen subject and preheader, and lists the benefits", () => {
    for (const framework of ["PAS", "AIDA", "BAB"]) {
      const html = emailBody(
        ctx({ ...starterKit, subject: "Your loaf, sorted", preheader: "A kit that works" }),
        framework,
      );
      expect(html).toContain("<strong>Subject:</strong> Your loaf, sorted");
      expect(html).toContain("<em>Preheader:</em> A kit that works");
      expect(html).toContain("<li>Step-by-step video lessons</li>");
      expect(html).toContain('href="https://crumb.example.com/"');
      expect(html).toContain("Crumb &amp; Co");
    }
  });
});

describe("strategy composers", () => {
  it("brand messaging puts the customer as hero and the business as guide (StoryBrand)", () => {
    const out = brandMessaging(ctx({ ...starterKit, differentiators: ["Starters from a 40-year-old culture"] }));
    expect(out.story[0]).toMatch(/^Hero: Home bakers/);
    expect(out.story.join(" ")).toContain("Guide: Crumb & Co");
    expect(out.positioning[0]).toContain("starters from a 40-year-old culture");
    expect(out.taglines.every((line) => line.length <= 60)).toBe(true);
  });
  it("a business plan fills the Lean Canvas from the idea", () => {
    const out = businessPlan(
      ctx({ idea: "Mobile bike repair", audience: "commuters", painPoints: ["bike shops are closed when I am free"] }),
    );
    expect(out.problem[0]).toBe("Bike shops are closed when I am free.");
    expect(out.valueProposition[0]).toContain("Mobile bike repair");
    expect(out.firstSteps[0]).toContain("commuters");
  });
  it("business optimization ranks ideas by ICE score", () => {
    const out = businessOptimization(ctx({ painPoints: ["few repeat customers"], whatWorks: ["Instagram reels"] }));
    const scores = out.priorities.map((line) => Number(line.match(/= (\d+)\)$/)![1]));
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(out.priorities.join(" ")).toContain("few repeat customers");
    expect(out.priorities.join(" ")).toContain("instagram reels");
  });
  it("segments and campaign plans use the audience, offer, channels and dates", () => {
    const segments = audienceSegments(ctx({ ...starterKit, region: "Leeds" }));
    expect(segments.segments[0]).toContain("Home bakers in Leeds");
    const plan = campaignPlan(
      ctx({
        ...starterKit,
        goal: "Sell 200 kits",
        channels: ["email", "instagram"],
        dates: { start: "2026-12-01", end: "2026-12-24" },
      }),
    );
    expect(plan.summary).toContain("Objective: Sell 200 kits.");
    expect(plan.summary.join(" ")).toContain("2026-12-01 to 2026-12-24");
    expect(plan.channels[0]).toContain("Email: two sends");
    expect(plan.slogans.every((line) => line.length <= 60)).toBe(true);
  });
  it("a business profile reads the website audit of an earlier step", () => {
    const out = businessProfile(
      ctx(
        {},
        {
          profile: null,
          steps: {
            site: {
              values: {},
              data: {
                title: "Bikefix | Mobile bike repair in Leeds",
                metaDescription: "We fix bikes at your door.",
                headings: [{ level: 1, text: "Mobile bike repair" }],
                issues: ["2 images have no alt text"],
              },
            } as never,
          },
        },
      ),
    );
    expect(out.name).toEqual(["Bikefix"]);
    expect(out.description).toEqual(["We fix bikes at your door."]);
    expect(out.fixes).toEqual(["2 images have no alt text"]);
    expect(out.keywords).toContain("mobile bike repair");
  });
});

describe("offerings", () => {
  it("product pages follow FAB with the features and benefits", () => {
    const html = offeringPage(ctx({ ...starterKit, shipping: "free UK delivery over £30" }), "product");
    expect(html).toContain("<h1>Sourdough Starter Kit</h1>");
    expect(html).toContain("<strong>Live rye starter</strong> — so you get bake your first loaf in a week");
    expect(html).toContain("Free UK delivery over £30");
  });
  it("setup summaries keep the SEO title ≤ 60 and meta description ≤ 160, with a slug", () => {
    for (const kind of ["product", "service"] as const) {
      const out = offeringSummary(ctx(starterKit), kind);
      expect(out.seoTitle[0]!.length).toBeLessThanOrEqual(SEO.title);
      expect(out.seoDescription[0]!.length).toBeLessThanOrEqual(SEO.description);
      expect(out.slug[0]).toMatch(/^[a-z0-9-]+$/);
      expect(out.slug[0]).toContain("sourdough-starter-kit");
    }
  });
  it("product ideas come from the keywords and audience", () => {
    const out = productIdeas(ctx({ ...starterKit, count: 5 }));
    expect(out.ideas.length).toBe(5);
    expect(out.ideas.join(" ")).toContain("sourdough starter");
    expect(out.ideas.join(" ")).toContain("home bakers");
  });
});

describe("research", () => {
  it("topic ideas turn seed topics into questions and pillars", () => {
    const out = topicIdeas(ctx({ seedTopics: ["rye bread", "starter care"], audience: "home bakers" }));
    expect(out.topics.some((topic) => topic.includes("rye bread"))).toBe(true);
    expect(out.pillars[0]).toMatch(/^Rye Bread: /);
  });
  it("the keyword plan ranks and clusters only the provider's rows", () => {
    const data = {
      keywords: [
        { keyword: "buy sourdough starter", searchVolume: 900, competition: 0.8, cpc: 1.2 },
        { keyword: "how to make sourdough starter", searchVolume: 12000, competition: 0.1, cpc: 0.3 },
        { keyword: "best sourdough starter kit", searchVolume: 400, competition: 0.4 },
      ],
    };
    const out = keywordPlan(ctx({}, { steps: { research: { values: {}, data } as never } }));
    expect(out.opportunities[0]).toBe(
      "how to make sourdough starter — 12,000 searches/month, competition 10%, CPC 0.30",
    );
    expect(out.clusters).toContain("Learning (informational): how to make sourdough starter");
    expect(intentOf("buy sourdough starter")).toBe("Buy now (transactional)");
    expect(keywordPlan(ctx({})).opportunities).toEqual([]);
  });
  it("competitor insights list the provider's competitors", () => {
    const data = {
      competitors: [{ domain: "bakery.example", organicTraffic: 5400, commonKeywords: 12, topKeywords: ["rye"] }],
    };
    const out = competitorInsights(
      ctx({ differentiators: ["Same-day starters"] }, { steps: { research: { values: {}, data } as never } }),
    );
    expect(out.competitors[0]).toBe("bakery.example — ~5,400 visits/month from search, 12 keywords in common");
    expect(out.theirKeywords).toEqual(["rye"]);
    expect(out.standOut[0]).toContain("same-day starters");
  });
});

describe("pages and podcasts", () => {
  it("plans a page and writes each section by its heading", () => {
    const plan = webPagePlan(ctx({ ...starterKit, pageType: "landing" }));
    expect(plan.sections[0]).toBe("Hero: Sourdough starter kit for home bakers");
    const hero = webPageSection(ctx(starterKit, { item: plan.sections[0], itemIndex: 0 }));
    expect(hero).toContain("<h1>Sourdough starter kit for home bakers</h1>");
    const problem = webPageSection(ctx(starterKit, { item: "The problem", itemIndex: 1 }));
    expect(problem).toContain("<li>Flat, dense loaves</li>");
    expect(plan.seoTitle[0]!.length).toBeLessThanOrEqual(SEO.title);
  });
  it("plans podcast segments from the talking points and scripts each one", () => {
    const plan = podcastPlan(
      ctx({
        topic: "Keeping a starter alive",
        guest: "Ana",
        talkingPoints: ["Feeding schedules", "Reviving a sleepy starter"],
      }),
    );
    expect(plan.segments).toEqual([
      "Cold open: why keeping a starter alive matters to home bakers",
      "Meet Ana",
      "Feeding schedules",
      "Reviving a sleepy starter",
      "Wrap-up and call to action",
    ]);
    const script = podcastSegment(
      ctx({ topic: "Keeping a starter alive", host: "Sam" }, { item: "Feeding schedules", itemIndex: 2 }),
    );
    expect(script).toContain("[Feeding schedules]");
    expect(script).toContain("Sam: Let's talk about feeding schedules.");
  });
});

describe("smart editor", () => {
  const text =
    "We bake bread in order to make people happy. It is really very good bread, and it lasts for days. Come and try it.\n\nOur shop opens at eight. It closes at six.";
  it("shortens, bullets, summarises and changes register without inventing content", () => {
    expect(editText(text, "shorten")).toBe(
      "We bake bread to make people happy. It is good bread, and it lasts for days.\n\nOur shop opens at eight.",
    );
    // A heading on its own line stays a line of its own, not the start of the next sentence.
    expect(editText("<h1>Truing</h1>\n<p>Wheels drift. We true them. Come by.</p>", "shorten")).toBe(
      "<h1>Truing</h1>\n\n<p>Wheels drift. We true them.",
    );
    expect(editText(text, "bullets").split("\n")[0]).toBe("- We bake bread in order to make people happy");
    expect(editText(text, "summarize")).toBe(
      "In short: We bake bread in order to make people happy. our shop opens at eight.",
    );
    expect(editText(text, "friendly")).toContain("It's really very good bread");
    expect(editText("We're open. Don't wait!", "formal")).toBe("We are open. Do not wait.");
    expect(sentences(text).length).toBe(5);
  });
  it("drafts a document from its brief", () => {
    const doc = documentDraft(
      ctx({
        title: "Winter opening hours",
        topic: "our winter hours",
        keyPoints: ["Closed on Mondays", "Late opening on Fridays"],
      }),
    );
    expect(doc.startsWith("Winter opening hours")).toBe(true);
    expect(doc).toContain("- Closed on Mondays");
  });
});

describe("visual identity", () => {
  it("derives a palette from the brand colour with readable text colours", () => {
    const colors = palette("#c0392b");
    expect(colors[0]).toEqual({ role: "Primary", hex: "#c0392b" });
    expect(colors.every((color) => /^#[0-9a-f]{6}$/.test(color.hex))).toBe(true);
    expect(contrast(colors[3]!.hex, colors[4]!.hex)).toBeGreaterThan(7);
    const out = visualIdentity(ctx({ ...starterKit, primaryColor: "#c0392b", style: "classic" }));
    expect(out.fonts[0]).toBe("Headings: Playfair Display");
    expect(out.palette[0]).toMatch(/^Primary: #c0392b — text #[0-9a-f]{6} \(contrast \d+\.\d:1\)$/);
  });
  it("writes image prompts from the subject, style and colour", () => {
    const prompts = imagePrompts(
      ctx({ offering: "Sourdough starter kit", primaryColor: "#c0392b", style: "minimal" }),
      2,
    );
    expect(prompts).toHaveLength(2);
    expect(prompts[0]).toContain("Sourdough starter kit");
    expect(prompts[0]).toContain("#c0392b accents");
  });
});

describe("the composer registry", () => {
  it("writes every section a list composer declares", () => {
    const values: Values = {
      ...starterKit,
      idea: "Mobile bike repair",
      topic: "bread",
      primaryColor: "#336699",
    } as Record<string, JsonValue>;
    for (const composer of Object.values(COMPOSERS)) {
      if (composer.format !== "list" || composer.name === "keywordPlan" || composer.name === "competitorInsights")
        continue;
      const sections = composer.sections!.map((key) => ({ key, heading: key, minItems: 1 }));
      const text = composer.compose(ctx(values), {
        framework: composer.frameworks[0]!,
        params: {},
        output: { format: "list", sections },
      });
      for (const key of composer.sections!)
        expect(`${composer.name}: ${text}`).toMatch(new RegExp(`## ${key}\\n- \\S`));
    }
  });
});
