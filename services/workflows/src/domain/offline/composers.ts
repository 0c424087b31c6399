import type { JsonValue } from "@bufbuild/protobuf";
import { composeAssistantReply } from "../assistant";
import type { OutputSpec } from "../definition";
import { composeImagePrompts } from "../image-prompts";
import type { ComposeContext } from "../prompt";
import { composeBlogDraft, composeBlogPlan } from "./blog";

export interface ComposeOptions {
  framework: string;
  params: Record<string, JsonValue>;
  output: OutputSpec;
}

/** An offline writer a definition names in `action.offline.composer`. */
export interface Composer {
  name: string;
  /** The result format it writes (must match the action's output format). */
  format: "list" | "html" | "text";
  /** The frameworks it can write with (the definition picks one). */
  frameworks: string[];
  /** For "list": the section keys it fills. */
  sections?: string[];
  compose(ctx: ComposeContext, options: ComposeOptions): string;
}

const lengthWords = (ctx: ComposeContext, params: Record<string, JsonValue>): number => {
  const table = (params.lengthWords ?? {}) as Record<string, JsonValue>;
  const chosen = table[String(ctx.values.length ?? "")];
  return typeof chosen === "number" ? chosen : typeof params.defaultWords === "number" ? params.defaultWords : 1000;
};

export const COMPOSERS: Record<string, Composer> = {
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
  imagePrompts: {
    name: "imagePrompts",
    format: "list",
    frameworks: ["template"],
    sections: ["prompts"],
    compose: (ctx) => composeImagePrompts(ctx),
  },
  assistantReply: {
    name: "assistantReply",
    format: "text",
    frameworks: ["template"],
    compose: (ctx) => composeAssistantReply(ctx),
  },
};
