import { loadDefinition } from "@crafter/workflow-language";
import { describe, expect, it } from "@jest/globals";
import {
  assistantRequest,
  checkConversation,
  composeAssistantReply,
  MAX_CHAT_CHARS,
  MAX_CRAFT_CHARS,
} from "../src/domain/assistant";
import { CraftRuleError, completeStep, startCraft } from "../src/domain/craft";
import { composeImagePrompts, imagePromptRequest, plainText } from "../src/domain/image-prompts";
import { shapeOutput } from "../src/domain/output";
import { changeResults, copyName, USER_ENGINE } from "../src/domain/results";
import type { CraftProgress, CraftRecord, ResultRecord } from "../src/domain/types";
import { composeOffline } from "../src/generation/offline-engine";
import { blogWriter, profile, rawBlogWriter } from "./fixtures";

const now = new Date("2025-01-01T10:00:00Z");
let counter = 0;
const newId = () => `new-${++counter}`;

function plan(id: string, titles: string[]): ResultRecord {
  return {
    id,
    content: titles.map((t) => `- ${t}`).join("\n"),
    format: "list",
    sections: { titles, outline: ["Intro"] },
    engine: "offline",
    usage: { inputTokens: 3, outputTokens: 5 },
    createdAt: now,
  };
}

/** BlogWriter with its first step completed with `result`. */
function planned(def = blogWriter, result = plan("r1", ["A title", "Another"])): CraftProgress {
  const progress = startCraft(def, profile, now);
  const values = { topic: "Starters", keywords: [], audience: "bakers", tone: "friendly" };
  return completeStep(def, progress, "topic", values, [result], profile, now).progress;
}

function ruleError(run: () => unknown): CraftRuleError {
  try {
    run();
  } catch (error) {
    if (error instanceof CraftRuleError) return error;
    throw error;
  }
  throw new Error("no rule was broken");
}

/** BlogWriter whose topic step appends up to `max` results and shows a single-select list. */
function appending(max: number) {
  const raw = rawBlogWriter();
  raw.steps[0].action.resultMode = "AppendResults";
  raw.steps[0].action.maxResults = max;
  raw.steps[0].viewer = "single select list";
  return loadDefinition(raw);
}

const results = (progress: CraftProgress, step = "topic") => progress.steps.find((s) => s.name === step)!.results;

describe("changing a step's results", () => {
  it("edits a list result from content or sections, keeping its other fields", () => {
    const edited = changeResults(
      blogWriter,
      planned(),
      "topic",
      { resultId: "r1", content: "## Title ideas\n- Fresh\n## Outline\n- One\n- Two" },
      newId,
      now,
    );
    expect(results(edited)[0]).toMatchObject({
      id: "r1",
      engine: "offline",
      sections: { titles: ["Fresh"], outline: ["One", "Two"] },
      content: "## Title ideas\n- Fresh\n\n## Outline\n- One\n- Two",
      usage: { inputTokens: 3, outputTokens: 5 },
    });
    const bySections = changeResults(
      blogWriter,
      planned(),
      "topic",
      { resultId: "r1", sections: { titles: [" X ", ""], outline: ["Y"] } },
      newId,
      now,
    );
    expect(results(bySections)[0]!.sections).toEqual({ titles: ["X"], outline: ["Y"] });
    expect(
      ruleError(() =>
        changeResults(blogWriter, planned(), "topic", { resultId: "r1", sections: { titles: [] } }, newId, now),
      ).code,
    ).toBe("CR_ERR_BAD_REQUEST");
  });

  it("sanitises edited HTML and refuses HTML without text", () => {
    const draft: ResultRecord = { ...plan("d1", []), sections: undefined, format: "html", content: "<p>x</p>" };
    const progress = planned();
    const outline = progress.steps.findIndex((s) => s.name === "outline");
    progress.steps[outline] = { ...progress.steps[outline]!, results: [draft] };
    const edited = changeResults(
      blogWriter,
      progress,
      "outline",
      { resultId: "d1", content: '<p onclick="x()">Hi<script>alert(1)</script></p><a href="javascript:x">l</a>' },
      newId,
      now,
    );
    expect(results(edited, "outline")[0]!.content).toBe('<p>Hi</p><a rel="noopener noreferrer">l</a>');
    expect(
      ruleError(() =>
        changeResults(blogWriter, progress, "outline", { resultId: "d1", content: "<p> </p>" }, newId, now),
      ).code,
    ).toBe("CR_ERR_BAD_REQUEST");
  });

  it("selects, sets data, deletes, and answers unknown results and empty changes", () => {
    const selected = changeResults(
      blogWriter,
      planned(),
      "topic",
      { resultId: "r1", selected: true, data: { score: 3 } },
      newId,
      now,
    );
    expect(results(selected)[0]).toMatchObject({ selected: true, data: { score: 3 } });
    expect(
      results(changeResults(blogWriter, planned(), "topic", { resultId: "r1", delete: true }, newId, now)),
    ).toEqual([]);
    expect(
      ruleError(() => changeResults(blogWriter, planned(), "topic", { resultId: "nope", selected: true }, newId, now))
        .code,
    ).toBe("NOT_FOUND");
    expect(ruleError(() => changeResults(blogWriter, planned(), "topic", { resultId: "r1" }, newId, now)).code).toBe(
      "CR_ERR_BAD_REQUEST",
    );
    expect(ruleError(() => changeResults(blogWriter, planned(), "topic", { delete: true }, newId, now)).code).toBe(
      "CR_ERR_BAD_REQUEST",
    );
  });

  it("adds a user-written result: ReplaceResults replaces, a step not open yet is a CONFLICT", () => {
    const added = changeResults(blogWriter, planned(), "topic", { content: "- Mine" }, newId, now);
    expect(results(added)).toHaveLength(1);
    expect(results(added)[0]).toMatchObject({
      engine: USER_ENGINE,
      format: "list",
      sections: { titles: ["Mine"], outline: [] },
      usage: { inputTokens: 0, outputTokens: 0 },
    });
    const fresh = startCraft(blogWriter, profile, now);
    // "draft" is a view step showing the outline's results: it edits those.
    expect(ruleError(() => changeResults(blogWriter, fresh, "draft", { content: "<p>x</p>" }, newId, now)).code).toBe(
      "CONFLICT",
    );
    expect(ruleError(() => changeResults(blogWriter, fresh, "outline", { content: "<p>x</p>" }, newId, now)).code).toBe(
      "CONFLICT",
    );
    expect(ruleError(() => changeResults(blogWriter, planned(), "topic", {}, newId, now)).code).toBe(
      "CR_ERR_BAD_REQUEST",
    );
  });

  it("AppendResults adds up to maxResults, then ReachedMaxResults; single-select keeps one selected", () => {
    const def = appending(2);
    const two = changeResults(def, planned(def), "topic", { content: "- Mine", selected: true }, newId, now);
    expect(results(two).map((r) => r.engine)).toEqual(["offline", USER_ENGINE]);
    expect(ruleError(() => changeResults(def, two, "topic", { content: "- Third" }, newId, now)).code).toBe(
      "ReachedMaxResults",
    );
    const reselected = changeResults(def, two, "topic", { resultId: "r1", selected: true }, newId, now);
    expect(results(reselected).map((r) => r.selected ?? false)).toEqual([true, false]);
  });

  it("names copies within the length limit", () => {
    expect(copyName("Spring post", 120)).toBe("Spring post (copy)");
    expect(copyName("x".repeat(120), 120)).toHaveLength(120);
    expect(copyName("x".repeat(120), 120).endsWith(" (copy)")).toBe(true);
  });
});

describe("image prompts", () => {
  it("asks the model for a Prompts list in the generator's style", () => {
    const request = imagePromptRequest({ kind: "profile", profile, isBusinessProfile: true }, "imagen");
    expect(request.system).toContain("Imagen");
    expect(request.prompt).toContain("Business: Crumb & Co");
    expect(request.prompt).toContain("Keywords: sourdough starter, wild yeast");
    const doc = imagePromptRequest(
      { kind: "content", content: "<h1>Spring</h1><p>Our new rye &amp; spelt loaf.</p>" },
      "dalle",
    );
    expect(doc.prompt).toContain("Spring\n\nOur new rye & spelt loaf.");
  });

  it("composes three prompts offline from the profile, and from a document's sentences", () => {
    const fromProfile = shapeOutput(
      { format: "list", sections: [{ key: "prompts", heading: "Prompts", minItems: 1 }] },
      composeOffline(imagePromptRequest({ kind: "profile", profile, isBusinessProfile: false }, "dalle")),
    );
    expect(fromProfile.sections!.prompts).toHaveLength(3);
    expect(fromProfile.sections!.prompts![0]).toContain("Crumb & Co");
    expect(fromProfile.sections!.prompts!.join(" ")).toContain("sourdough starter");
    const ctx = imagePromptRequest(
      { kind: "content", content: "<p>We bake rye every Monday. Spelt loaves sell out by noon.</p>" },
      "imagen",
    ).context;
    const text = composeImagePrompts(ctx);
    expect(text).toContain("- An illustration of: We bake rye every Monday, photograph");
    expect(text).toContain("- A scene showing spelt loaves sell out by noon");
  });

  it("reads HTML as text", () => {
    expect(plainText("<p>a &lt;b&gt;</p><p>c</p>")).toBe("a <b>\n\nc");
  });
});

describe("assistant chat", () => {
  it("rejects an empty conversation and one over 163840 characters", () => {
    expect(checkConversation([{ type: "message", content: "  " }])).toEqual({ messages: "Write a message first." });
    expect(checkConversation([{ type: "message", content: "x".repeat(MAX_CHAT_CHARS) }])).toEqual({});
    expect(
      checkConversation([
        { type: "message", content: "x".repeat(MAX_CHAT_CHARS) },
        { type: "answer", content: "y" },
      ]).messages,
    ).toContain("too long (163841 of 163840 characters)");
  });

  it("sends the transcript with roles", () => {
    const request = assistantRequest([
      { type: "message", content: "Hi" },
      { type: "answer", content: "Hello!" },
      { type: "message", content: "Help me with ads" },
    ]);
    expect(request.prompt).toBe("User: Hi\n\nAssistant: Hello!\n\nUser: Help me with ads\n\nAssistant:");
    expect(request.output).toEqual({ format: "text" });
  });

  it("answers offline honestly, from the conversation", () => {
    const reply = composeAssistantReply(
      assistantRequest([
        { type: "message", content: "How do I write a newsletter?" },
        { type: "answer", content: "…" },
        { type: "message", content: "And a blog post about it?" },
      ]).context,
    );
    expect(reply).toContain("offline");
    expect(reply).toContain("You asked: “And a blog post about it?”");
    expect(reply).toContain("Blog post workflow");
    expect(reply).toContain("Email workflow");
  });

  const product = {
    profileId: "product-1",
    name: "Spelt Loaf",
    description: "A 48-hour spelt sourdough.",
    audience: "",
    keywords: ["spelt"],
    websiteUrl: "",
    type: "PRODUCT",
    fields: { featureList: ["No added yeast", "Stone-milled flour"], shippingAndReturnsPolicy: "Collect in store." },
  };
  const craftOf = (progress: CraftProgress): CraftRecord => ({
    ...progress,
    id: "craft-1",
    userId: "u1",
    projectId: "p1",
    profileId: "product-1",
    workflowName: "BlogWriter",
    workflowVersion: 1,
    craftName: "Untitled blog post",
    contentName: "Starters",
    profile,
    usage: { inputTokens: 0, outputTokens: 0, generations: 0 },
    createdAt: now,
    updatedAt: now,
  });

  it("tells the model the business, the chosen profile and the open craft, labelled", () => {
    const request = assistantRequest([{ type: "message", content: "A headline?" }], {
      business: { ...profile, type: "PROJECT" },
      profile: product,
      craft: { record: craftOf(planned()), definition: blogWriter },
    });
    expect(request.system).toContain("You are Crafter's assistant.");
    expect(request.system).toContain("## The business\nBusiness: Crumb & Co\nDescription: We bake slow-fermented");
    expect(request.system).toContain("Keywords: sourdough starter, wild yeast");
    expect(request.system).toContain("## The product they are working on\nProduct: Spelt Loaf");
    expect(request.system).toContain("Feature list: No added yeast, Stone-milled flour");
    expect(request.system).toContain("Shipping and returns policy: Collect in store.");
    expect(request.system).toContain("Craft: Starters\nWorkflow: Blog post\nCurrent step:");
    expect(request.system).toContain("Step “Topic and keywords” (done)\n- Topic: Starters");
    expect(request.system).toContain("Latest result:\n- A title\n- Another");
    // Without context the prompt is as before.
    expect(assistantRequest([{ type: "message", content: "Hi" }]).system).not.toContain("## The business");
  });

  it("trims a long craft to its budget, keeping the current step", () => {
    const long = plan(
      "r1",
      Array.from({ length: 40 }, (_, i) => `Title ${i} ${"x".repeat(200)}`),
    );
    const progress = planned(blogWriter, long);
    const request = assistantRequest([{ type: "message", content: "Hi" }], {
      business: null,
      profile: null,
      craft: { record: craftOf(progress), definition: blogWriter },
    });
    const block = request.system.slice(request.system.indexOf("## The craft"));
    expect(block.length).toBeLessThan(MAX_CRAFT_CHARS + 600);
    expect(block).toContain("Latest result:");
    expect(block).toContain("…");
  });

  it("names the context in the offline answer", () => {
    const reply = composeAssistantReply(
      assistantRequest([{ type: "message", content: "Ideas?" }], {
        business: { ...profile, type: "PROJECT" },
        profile: product,
        craft: { record: craftOf(planned()), definition: blogWriter },
      }).context,
    );
    expect(reply).toContain("offline");
    expect(reply).toContain("your business “Crumb & Co”, the product “Spelt Loaf”, the open craft, Blog post (step");
  });
});
