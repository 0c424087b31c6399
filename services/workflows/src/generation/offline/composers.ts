import type { JsonValue } from "@bufbuild/protobuf";
import type { ComposerInfo, OutputSpec } from "@crafter/workflow-language";
import { composeAssistantReply } from "../../domain/assistant";
import { imagePromptLines } from "../../domain/image-prompts";
import type { ComposeContext } from "../../domain/prompt";
import { adCopy, googleAds, metaAds } from "./ads";
import { composeBlogDraft, composeBlogPlan } from "./blog";
import { listSections } from "./brief";
import {
  audienceSegments,
  brandMessaging,
  businessOptimization,
  businessPlan,
  businessProfile,
  campaignPlan,
} from "./business";
import { documentDraft, editSource, editText } from "./editor";
import { offeringPage, offeringSummary, productIdeas } from "./offerings";
import { podcastPlan, podcastSegment, webPagePlan, webPageSection } from "./pages";
import { competitorInsights, keywordPlan, topicIdeas } from "./research";
import { emailBody, emailHeaders, socialPost } from "./social";
import { imagePrompts, visualIdentity } from "./visual";

export interface ComposeOptions {
  framework: string;
  params: Record<string, JsonValue>;
  output: OutputSpec;
}

/** An offline writer a definition names in `action.offline.composer`. */
export interface Composer extends ComposerInfo {
  compose(ctx: ComposeContext, options: ComposeOptions): string;
}

const lengthWords = (ctx: ComposeContext, params: Record<string, JsonValue>): number => {
  const table = (params.lengthWords ?? {}) as Record<string, JsonValue>;
  const chosen = table[String(ctx.values.length ?? "")];
  return typeof chosen === "number" ? chosen : typeof params.defaultWords === "number" ? params.defaultWords : 1000;
};

/** A list composer from a function returning items by section key; it writes the sections the step asks for. */
function list<K extends string>(
  name: string,
  frameworks: string[],
  sections: K[],
  write: (ctx: ComposeContext, options: ComposeOptions) => Record<K, string[]>,
): Composer {
  return {
    name,
    format: "list",
    frameworks,
    sections,
    compose: (ctx, options) =>
      listSections(options.output.format === "list" ? options.output.sections : [], write(ctx, options)),
  };
}

const all: Composer[] = [
  list("googleAds", ["AIDA"], ["headlines", "descriptions", "paths"], (ctx) => googleAds(ctx)),
  list("metaAds", ["PAS"], ["primaryTexts", "headlines", "descriptions"], (ctx) => metaAds(ctx)),
  list("adCopy", ["FAB"], ["headlines", "bodies", "ctas"], (ctx) => {
    const { platform: _platform, ...sections } = adCopy(ctx);
    return sections;
  }),
  list("emailHeaders", ["AIDA"], ["subjects", "preheaders"], (ctx) => emailHeaders(ctx)),
  list(
    "brandMessaging",
    ["StoryBrand"],
    ["positioning", "valueProposition", "story", "messages", "taglines", "elevatorPitch"],
    (ctx) => brandMessaging(ctx),
  ),
  list(
    "businessPlan",
    ["LeanCanvas"],
    ["problem", "customers", "valueProposition", "solution", "channels", "revenue", "metrics", "firstSteps"],
    (ctx) => businessPlan(ctx),
  ),
  list("businessOptimization", ["ICE"], ["priorities", "quickWins", "metrics"], (ctx) => businessOptimization(ctx)),
  list("audienceSegments", ["STP"], ["segments", "messages", "questions"], (ctx) => audienceSegments(ctx)),
  list("campaignPlan", ["4Ps"], ["summary", "slogans", "timeline", "channels"], (ctx) => campaignPlan(ctx)),
  list(
    "businessProfile",
    ["StoryBrand"],
    ["name", "description", "audience", "keywords", "offerings", "fixes"],
    (ctx) => businessProfile(ctx),
  ),
  list("productIdeas", ["JTBD"], ["ideas", "validation"], (ctx) => productIdeas(ctx)),
  list("productSummary", ["FAB"], ["summary", "points", "seoTitle", "seoDescription", "slug"], (ctx) =>
    offeringSummary(ctx, "product"),
  ),
  list("serviceSummary", ["FAB"], ["summary", "points", "seoTitle", "seoDescription", "slug"], (ctx) =>
    offeringSummary(ctx, "service"),
  ),
  list("topicIdeas", ["TopicClusters"], ["topics", "pillars", "angles"], (ctx) => topicIdeas(ctx)),
  list("keywordPlan", ["SearchIntent"], ["opportunities", "clusters", "actions"], (ctx) => keywordPlan(ctx)),
  list("competitorInsights", ["STP"], ["competitors", "theirKeywords", "standOut"], (ctx) => competitorInsights(ctx)),
  list("webPagePlan", ["StoryBrand"], ["headlines", "sections", "seoTitle"], (ctx) => webPagePlan(ctx)),
  list("podcastPlan", ["AIDA"], ["titles", "segments"], (ctx) => podcastPlan(ctx)),
  list("visualIdentity", ["ColorHarmony"], ["palette", "fonts", "imagery", "prompts"], (ctx) => visualIdentity(ctx)),
  list("imagePromptWriter", ["template"], ["prompts"], (ctx) => ({ prompts: imagePromptLines(ctx) })),
  list("imagePrompts", ["ColorHarmony"], ["prompts"], (ctx, { params }) => ({
    prompts: imagePrompts(ctx, typeof params.count === "number" ? params.count : 4),
  })),
  {
    name: "emailBody",
    format: "html",
    frameworks: ["PAS", "AIDA", "BAB"],
    compose: (ctx, { framework }) => emailBody(ctx, framework),
  },
  { name: "productPage", format: "html", frameworks: ["FAB"], compose: (ctx) => offeringPage(ctx, "product") },
  { name: "servicePage", format: "html", frameworks: ["FAB"], compose: (ctx) => offeringPage(ctx, "service") },
  { name: "webPageSection", format: "html", frameworks: ["StoryBrand"], compose: (ctx) => webPageSection(ctx) },
  {
    name: "socialPost",
    format: "text",
    frameworks: ["AIDA", "PAS", "BAB"],
    compose: (ctx, { framework }) => socialPost(ctx, framework),
  },
  { name: "podcastSegment", format: "text", frameworks: ["AIDA"], compose: (ctx) => podcastSegment(ctx) },
  { name: "documentDraft", format: "text", frameworks: ["AIDA"], compose: (ctx) => documentDraft(ctx) },
  {
    name: "editText",
    format: "text",
    frameworks: ["PlainLanguage"],
    compose: (ctx, { params }) => editText(editSource(ctx), typeof params.command === "string" ? params.command : ""),
  },
];

export const COMPOSERS: Record<string, Composer> = {
  ...Object.fromEntries(all.map((composer) => [composer.name, composer])),
  blogPlan: {
    name: "blogPlan",
    format: "list",
    frameworks: ["AIDA"],
    sections: ["titles", "outline"],
    compose: (ctx, { output }) => composeBlogPlan(ctx, output.format === "list" ? output.sections : []),
  },
  blogDraft: {
    name: "blogDraft",
    format: "html",
    frameworks: ["PAS"],
    compose: (ctx, { params }) => composeBlogDraft(ctx, lengthWords(ctx, params)),
  },
  // Not used by definitions: the image prompt writers and the assistant chat.
  assistantReply: {
    name: "assistantReply",
    format: "text",
    frameworks: ["template"],
    compose: (ctx) => composeAssistantReply(ctx),
  },
};
