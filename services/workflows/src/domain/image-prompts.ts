import { htmlToText } from "@crafter/html";
import type { OutputSpec } from "@crafter/workflow-language";
import { phrase } from "../generation/offline/text";
import { describeProfile } from "./profile-text";
import type { ComposeContext, GenerationRequest } from "./prompt";
import type { ProfileSnapshot } from "./types";

/** The image generators of spec section 3. */
export const IMAGE_MODELS = ["dalle", "imagen"] as const;
export type ImageModel = (typeof IMAGE_MODELS)[number];

/** What the prompts are about: a profile (the business or one of its projects), or a smart document's content. */
export type ImagePromptSource =
  | { kind: "profile"; profile: ProfileSnapshot; isBusinessProfile: boolean }
  | { kind: "content"; content: string };

/** How many prompts are written. */
export const PROMPT_COUNT = 3;
/** The longest content read from a smart document, in characters (the rest adds cost, not ideas). */
export const MAX_CONTENT_CHARS = 6000;

export const IMAGE_PROMPT_OUTPUT: OutputSpec = {
  format: "list",
  sections: [{ key: "prompts", heading: "Prompts", minItems: 1 }],
};

const STYLE: Record<ImageModel, string> = {
  dalle: "DALL·E: one vivid descriptive sentence or two, naming subject, setting, light, mood and an art style",
  imagen:
    "Imagen: a photographic description naming subject, setting, lighting, camera angle and lens, e.g. '35mm, soft daylight'",
};

/** Text of HTML content, one line per block (links' labels only): see htmlToText. */
export function plainText(content: string): string {
  return htmlToText(content, { links: false });
}

/** The generation that writes image prompts (the offline composer `imagePromptWriter` reads `context.values`). */
export function imagePromptRequest(source: ImagePromptSource, model: ImageModel): GenerationRequest {
  const about =
    source.kind === "profile"
      ? describeProfile(source.profile, source.isBusinessProfile ? "Business" : "Project")
      : `Document:\n${plainText(source.content).slice(0, MAX_CONTENT_CHARS)}`;
  const context: ComposeContext = {
    values: {
      model,
      kind: source.kind,
      ...(source.kind === "profile"
        ? {
            name: source.profile.name,
            description: source.profile.description,
            audience: source.profile.audience,
            keywords: source.profile.keywords,
            business: source.isBusinessProfile,
          }
        : { content: plainText(source.content).slice(0, MAX_CONTENT_CHARS) }),
    },
    steps: {},
    profile: source.kind === "profile" ? source.profile : null,
    labels: {},
  };
  return {
    workflowName: "ImagePromptWriter",
    stepName: source.kind === "profile" ? "profileImagePrompts" : "smartDocumentImagePrompts",
    system: [
      "You write prompts for an AI image generator for a small business's marketing.",
      `Write for ${STYLE[model]}.`,
      "No text, letters or logos in the image; no real people's names; nothing the business did not say about itself.",
      `Answer with exactly this format and nothing else:\n## Prompts\n- <prompt>\n(${PROMPT_COUNT} items)`,
    ].join("\n"),
    prompt: `Write ${PROMPT_COUNT} image prompts ${source.kind === "profile" ? "that show this business at its best" : "that illustrate this document"}.\n\n${about}`,
    maxOutputTokens: 600,
    temperature: 0.8,
    output: IMAGE_PROMPT_OUTPUT,
    offline: { composer: "imagePromptWriter", framework: "template", params: {} },
    context,
  };
}

const MODEL_TAIL: Record<ImageModel, string> = {
  dalle: "digital illustration, warm colours, clean composition, no text",
  imagen: "photograph, 35mm lens, soft natural daylight, shallow depth of field, no text",
};

function firstSentences(text: string, count: number): string[] {
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => phrase(sentence))
    .filter((sentence) => sentence.split(/\s+/).length >= 3);
  return sentences.slice(0, count);
}

/**
 * Image prompts without a model: three scenes composed from the profile's own words (or the
 * document's first sentences), in the chosen generator's style. Pure and deterministic.
 */
export function composeImagePrompts(ctx: ComposeContext): string {
  return `## Prompts\n${imagePromptLines(ctx)
    .map((prompt) => `- ${prompt}`)
    .join("\n")}`;
}

/** The offline image prompts themselves, one per line of the list. */
export function imagePromptLines(ctx: ComposeContext): string[] {
  const values = ctx.values;
  const model = (values.model === "imagen" ? "imagen" : "dalle") as ImageModel;
  const tail = MODEL_TAIL[model];
  let prompts: string[];
  if (values.kind === "profile") {
    const name = String(values.name ?? "the business");
    const about = phrase(String(values.description ?? "")) || name;
    const audience = phrase(String(values.audience ?? "")) || "its customers";
    const keywords = Array.isArray(values.keywords) ? values.keywords.map(String).filter(Boolean) : [];
    const focus = keywords[0] ?? about;
    prompts = [
      `A welcoming scene that captures ${name}: ${about}, ${tail}`,
      `Close-up of ${focus} presented with care, in the setting where ${audience} would enjoy it, ${tail}`,
      `${audience} happily using what ${name} offers${keywords.length > 1 ? `, with hints of ${keywords.slice(1, 3).join(" and ")}` : ""}, ${tail}`,
    ];
  } else {
    const text = String(values.content ?? "");
    const sentences = firstSentences(text, PROMPT_COUNT);
    if (sentences.length === 0) sentences.push(phrase(text).slice(0, 120) || "the subject of the document");
    prompts = sentences.map((sentence, i) =>
      i === 0
        ? `An illustration of: ${sentence}, ${tail}`
        : `A scene showing ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}, ${tail}`,
    );
  }
  return prompts;
}
