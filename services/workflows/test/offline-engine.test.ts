import type { TextActionDefinition } from "@crafter/workflow-language";
import { describe, expect, it } from "@jest/globals";
import { completeStep, startCraft } from "../src/domain/craft";
import { shapeOutput } from "../src/domain/output";
import { buildGeneration, type GenerationRequest } from "../src/domain/prompt";
import type { ProfileSnapshot, Values } from "../src/domain/types";
import { countWords, gerund, subjectOf } from "../src/generation/offline/text";
import { composeOffline, createOfflineEngine, wordChunks } from "../src/generation/offline-engine";
import { blogWriter, profile, registry } from "./fixtures";

const now = new Date("2025-01-01T10:00:00Z");
const [topicStep, outlineStep] = blogWriter.steps as [(typeof blogWriter.steps)[0], (typeof blogWriter.steps)[0]];

function planRequest(values: Values, who: ProfileSnapshot | null = profile): GenerationRequest {
  const progress = startCraft(blogWriter, who, now);
  return buildGeneration(blogWriter, topicStep, { ...progress.steps[0]!.values, ...values }, progress.steps, who);
}

/** Runs step 1 offline and returns the request of step 2 with its prefilled values (plus `values`). */
function draftRequest(
  topicValues: Values,
  values: Values = {},
  who: ProfileSnapshot | null = profile,
): GenerationRequest {
  const plan = planRequest(topicValues, who);
  const shaped = shapeOutput((topicStep.action as TextActionDefinition).output, composeOffline(plan));
  const result = { id: "r1", ...shaped, engine: "offline", usage: { inputTokens: 0, outputTokens: 0 }, createdAt: now };
  const progress = completeStep(
    blogWriter,
    startCraft(blogWriter, who, now),
    "topic",
    plan.context.values,
    [result],
    who,
    now,
  ).progress;
  return buildGeneration(blogWriter, outlineStep, { ...progress.steps[1]!.values, ...values }, progress.steps, who);
}

async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of iterable) chunks.push(chunk);
  return chunks;
}

describe("the offline engine: title ideas and outline (AIDA)", () => {
  const request = planRequest({ topic: "How to keep a sourdough starter alive", tone: "friendly" });
  const text = composeOffline(request);
  const shaped = shapeOutput((topicStep.action as TextActionDefinition).output, text);

  it("writes the sectioned list every engine writes, parsed into title ideas and an outline", () => {
    expect(text.startsWith("## Title ideas\n- ")).toBe(true);
    expect(shaped.sections!.titles!.length).toBeGreaterThanOrEqual(4);
    expect(shaped.sections!.outline!.length).toBeGreaterThanOrEqual(5);
  });

  it("uses the user's topic, keywords, audience and business name", () => {
    expect(text).toContain("How to Keep a Sourdough Starter Alive");
    expect(text).toContain("keeping a sourdough starter alive");
    expect(text.toLowerCase()).toContain("wild yeast");
    expect(text).toContain("Home Bakers");
    expect(text).toContain("Crumb & Co");
  });

  it("is deterministic given the inputs and changes with them", () => {
    expect(composeOffline(planRequest({ topic: "How to keep a sourdough starter alive", tone: "friendly" }))).toBe(
      text,
    );
    expect(composeOffline(planRequest({ topic: "Rye bread for beginners", tone: "friendly" }))).not.toBe(text);
  });

  it("announces the framework and says it is not AI", () => {
    const engine = createOfflineEngine({ delayMs: 0 });
    expect(engine.describe(request)).toEqual({
      engine: "offline",
      framework: "AIDA",
      note: "Drafted offline with the AIDA framework from your own inputs — no AI provider is configured.",
    });
  });

  it("works without a profile", () => {
    const bare = composeOffline(planRequest({ topic: "Composting at home", keywords: [], audience: "" }, null));
    expect(bare).toContain("Composting at Home");
    expect(bare).not.toContain("undefined");
  });
});

describe("the offline engine: the draft (PAS)", () => {
  const request = draftRequest({ topic: "How to keep a sourdough starter alive", tone: "professional" });
  const html = composeOffline(request);

  it("answers first, then turns every outline item into an H2 section, in order, after the H1 title", () => {
    const outline = request.context.values.outline as string[];
    const headings = [...html.matchAll(/<h2>(.*?)<\/h2>/g)].map((match) => match[1]);
    expect(headings[0]).toBe("How to keep a sourdough starter alive: the short answer");
    expect(headings.slice(1, outline.length + 1)).toEqual(outline.map((item) => item.replace(/&/g, "&amp;")));
    expect(headings.at(-1)).toBe("Where to go from here");
    expect(html).toMatch(new RegExp(`^<h1>${String(request.context.values.title).replace(/&/g, "&amp;")}</h1>`));
  });

  it("weaves in the keywords, answers with the business's own words, and ends with a call to action", () => {
    expect(html).toContain("<strong>sourdough starter</strong>");
    expect(html).toContain("<strong>wild yeast</strong>");
    // Without key points, the business description is the answer.
    expect(html).toMatch(/the short answer<\/h2>\n<p>We bake slow-fermented sourdough in small batches in Leeds.<\/p>/);
    expect(html).toContain(
      'Crumb &amp; Co can help you with keeping a sourdough starter alive. <a href="https://crumb.example.com/" rel="noopener noreferrer">Visit crumb.example.com</a>',
    );
  });

  it("grows with the chosen length up to it, and never pads by repeating a sentence", () => {
    const words = (length: string) => countWords(composeOffline(draftRequest({ topic: "Bread" }, { length })));
    expect(words("short")).toBeGreaterThan(350);
    expect(words("short")).toBeLessThan(800);
    expect(words("medium")).toBeGreaterThanOrEqual(words("short"));
    expect(words("medium")).toBeLessThan(1250);
    expect(words("long")).toBeGreaterThanOrEqual(words("medium"));
  });

  it("states the user's key points as the answer to the topic's question", () => {
    const answered = composeOffline(
      draftRequest({
        topic: "How often should you service your bike",
        keyPoints: ["A full service every 3,000 miles or once a year", "A quick check every month"],
      }),
    );
    expect(answered).toContain("<h2>How often should you service your bike? The short answer</h2>");
    expect(answered).toContain("<p>A full service every 3,000 miles or once a year. A quick check every month.</p>");
  });

  it("escapes the user's text", () => {
    const nasty = draftRequest(
      { topic: "<script>alert(1)</script> tips", keywords: ['"quotes" & <b>bold</b>'] },
      { title: "<img src=x onerror=alert(1)>", outline: ["<i>one</i>", "two & three"] },
      { ...profile, name: "<Evil>", description: "</blockquote><script>x()</script>" },
    );
    const out = composeOffline(nasty);
    expect(out).not.toMatch(/<script|<img|<b>|<i>|<Evil>|<\/blockquote><script/);
    expect(out).toContain("<h1>&lt;img src=x onerror=alert(1)&gt;</h1>");
    expect(out).toContain("<h2>&lt;i&gt;one&lt;/i&gt;</h2>");
    expect(out).toContain("&quot;quotes&quot; &amp; &lt;b&gt;bold&lt;/b&gt;");
    // And the stored result is the same HTML after the sanitiser (which writes text quotes bare).
    expect(shapeOutput((outlineStep.action as TextActionDefinition).output, out).content).toBe(
      out.replaceAll("&quot;", '"').replaceAll("&#39;", "'"),
    );
  });

  it("is deterministic", () => {
    expect(composeOffline(draftRequest({ topic: "How to keep a sourdough starter alive", tone: "professional" }))).toBe(
      html,
    );
  });

  it("streams in word chunks that add up to the draft, and stops when aborted", async () => {
    const engine = createOfflineEngine({ delayMs: 0 });
    const run = engine.stream(request, new AbortController().signal);
    const chunks = await collect(run);
    expect(chunks.join("")).toBe(html);
    expect(chunks.length).toBeGreaterThan(100);
    expect(run.usage).toEqual({ inputTokens: 0, outputTokens: 0 });

    const controller = new AbortController();
    const slow = createOfflineEngine({ delayMs: 5 }).stream(request, controller.signal);
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const chunk of slow) {
          seen.push(chunk);
          if (seen.length === 3) controller.abort(new Error("client went away"));
        }
      })(),
    ).rejects.toThrow("client went away");
    expect(seen).toHaveLength(3);
  });

  it("writes an unpaced draft in one chunk, without waiting between words", async () => {
    // A minute a word: were it paced, this test would time out.
    const engine = createOfflineEngine({ delayMs: 60_000 });
    const chunks = await collect(engine.stream(request, new AbortController().signal, { paced: false }));
    expect(chunks).toEqual([html]);
  });
});

describe("text helpers", () => {
  it("turns a how-to topic into a phrase that reads inside a sentence", () => {
    expect(subjectOf("How to keep a starter alive", [])).toBe("keeping a starter alive");
    expect(subjectOf("how to bake rye", [])).toBe("baking rye");
    expect(subjectOf("Why does my bread collapse?", ["oven spring"])).toBe("oven spring");
    expect(subjectOf("Sourdough for beginners.", [])).toBe("sourdough for beginners");
    expect(subjectOf("SEO for bakeries", [])).toBe("SEO for bakeries");
    expect([gerund("run"), gerund("tie"), gerund("make"), gerund("open"), gerund("see")]).toEqual([
      "running",
      "tying",
      "making",
      "opening",
      "seeing",
    ]);
  });

  it("splits text into word chunks without losing whitespace", () => {
    const text = "  one two\nthree  four five six seven ";
    expect(wordChunks(text).join("")).toBe(text);
  });

  it("streams a short draft (an ad, an email's subject lines) word by word, a long one three words at a time", () => {
    const short = "## Subject lines\n- Spring tune-up week\n- Brakes and gears, sorted\n";
    const chunks = wordChunks(short);
    expect(chunks.join("")).toBe(short);
    expect(chunks.length).toBeGreaterThanOrEqual(short.trim().split(/\s+/).length);
    const long = "word ".repeat(1200);
    expect(wordChunks(long).length).toBe(400);
  });
});

describe("BusinessSetup's profile step on a project without keywords (issue 9, finding 4)", () => {
  const businessSetup = registry.latest("BusinessSetup")!;
  const bare: ProfileSnapshot = { ...profile, keywords: [], websiteUrl: "" };
  const stepOf = (name: string) => businessSetup.steps.find((step) => step.name === name)!;

  /** Start answered "no website" (the audit skipped), then the profile step's request from `values`. */
  function profileRequest(values: Values): GenerationRequest {
    const progress = completeStep(
      businessSetup,
      startCraft(businessSetup, bare, now),
      "start",
      { businessName: "Crumb & Co", hasWebsite: "no" },
      [],
      bare,
      now,
    ).progress;
    const open = progress.steps.find((step) => step.name === "profile")!;
    return buildGeneration(businessSetup, stepOf("profile"), { ...open.values, ...values }, progress.steps, bare);
  }

  it("drafts a profile whose every section the output asks for is filled, keywords from what it offers", () => {
    const output = (stepOf("profile").action as TextActionDefinition).output;
    const withNothing = shapeOutput(output, composeOffline(profileRequest({})));
    expect(withNothing.sections!.keywords!.length).toBeGreaterThan(0);
    expect(withNothing.sections!.name).toEqual(["Crumb & Co"]);
    const withOfferings = shapeOutput(output, composeOffline(profileRequest({ offerings: ["Sourdough classes"] })));
    expect(withOfferings.sections!.keywords).toContain("sourdough classes");
  });
});
