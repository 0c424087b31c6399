import type { JsonObject } from "@bufbuild/protobuf";
import { htmlToText } from "@crafter/html";
import type { Caller } from "@crafter/kit";
import type { StepDefinition, WorkflowDefinition } from "@crafter/workflow-language";
import type { ProfileSnapshot, ResultRecord, StepRecord } from "./types";

/**
 * What the media action kinds ask of the media service and keep in a step's result (pure: the
 * script and the image request are read from the craft; services/workflows/src/clients/media.ts
 * makes the calls).
 */

/** An asset as a step result keeps it (`data.asset`); `url` is the gateway's download route. */
export interface MediaAssetRef {
  id: string;
  type: "image" | "audio";
  name: string;
  mime: string;
  url: string;
  thumbnailUrl: string;
  source: string;
  label?: string;
  width?: number;
  height?: number;
  durationMs?: number;
}

export interface SpeechSegment {
  speaker: string;
  text: string;
}

export interface ImageRequest {
  prompt: string;
  /** WIDTHxHEIGHT, the network's size. */
  size: string;
  projectId: string;
  /** For the offline composer: a headline and the brand colours (#rrggbb). */
  headline: string;
  colors: string[];
}

/** The media service, as the engine calls it. @throws the media service's spec errors (credits, limits, provider). */
export interface MediaPort {
  generateImage(caller: Pick<Caller, "token" | "signal">, input: ImageRequest): Promise<MediaAssetRef>;
  /** One of the user's own assets (uploaded, crafted or stock). @throws NOT_FOUND. */
  getAsset(caller: Pick<Caller, "token" | "signal">, assetId: string): Promise<MediaAssetRef>;
  /** A stock photo (Unsplash or system) kept as the user's own asset. @throws NOT_FOUND, MEDIA_PROVIDER_FAILED. */
  importStock(caller: Pick<Caller, "token" | "signal">, stockId: string): Promise<MediaAssetRef>;
  /** A saved design's PNG as a designer asset. @throws NOT_FOUND, CONFLICT (no PNG saved yet). */
  storeDesignAsset(caller: Pick<Caller, "token" | "signal">, designId: string): Promise<MediaAssetRef>;
  generateSpeech(
    input: { userId: string; segments: SpeechSegment[]; name: string; projectId: string; key: string },
    signal: AbortSignal,
  ): Promise<MediaAssetRef>;
}

/** The picture size of each network (the crops image select viewer's presets). */
export const NETWORK_SIZES: Record<string, string> = {
  instagram: "1080x1080",
  facebook: "1200x628",
  linkedin: "1200x628",
  x: "1600x900",
  twitter: "1600x900",
  tiktok: "1080x1920",
  threads: "1080x1080",
  pinterest: "1000x1500",
};
export const DEFAULT_IMAGE_SIZE = "1080x1080";
/** The size of an action's `params.aspectRatio` (e.g. FacebookAdsWriter's square ad). */
export const ASPECT_SIZES: Record<string, string> = {
  "1:1": "1080x1080",
  "4:5": "1080x1350",
  "9:16": "1080x1920",
  "16:9": "1600x900",
  "1.91:1": "1200x628",
};

const HEX = /^#[0-9a-fA-F]{6}$/;

/** The results of a step that count: its selected ones when any are selected, else all. */
function chosen(results: readonly ResultRecord[]): ResultRecord[] {
  const selected = results.filter((result) => result.selected);
  return selected.length > 0 ? selected : [...results];
}

/** The steps before `step`, nearest first, with their records. */
function earlier(def: WorkflowDefinition, step: StepDefinition, steps: readonly StepRecord[]) {
  const index = def.steps.findIndex((candidate) => candidate.name === step.name);
  return def.steps
    .slice(0, Math.max(0, index))
    .map((definition) => ({ definition, record: steps.find((record) => record.name === definition.name) }))
    .filter((pair): pair is { definition: StepDefinition; record: StepRecord } => !!pair.record)
    .reverse();
}

/** Whether a line names its speaker: up to 4 words (no sentence punctuation) before a colon. */
const SPEAKER_LINE = /^\s*[*_]*([\p{L}][\p{L}\p{N} .'’-]{0,39}?)[*_]*\s*:\s*(.*)$/u;

/** Spoken text of a line: stage directions in brackets and markdown marks dropped. */
function spoken(text: string): string {
  return text
    .replace(/\[[^\]]*\]|\([^)]*(?:music|laughs?|pause|intro|outro|sfx)[^)]*\)/gi, " ")
    .replace(/[*_#`>]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The segments of a script: `NAME: words` lines give the speaker (a line without one continues
 * the last speaker, "Host" at first); consecutive lines of one speaker join; bracketed stage
 * directions (`[Intro music]`, `[answer]`) are not spoken.
 */
export function scriptSegments(text: string): SpeechSegment[] {
  const segments: SpeechSegment[] = [];
  let speaker = "Host";
  for (const raw of text.split(/\r?\n/)) {
    const match = SPEAKER_LINE.exec(raw);
    const named = match && match[1]!.trim().split(/\s+/).length <= 4 ? match : null;
    if (named) speaker = named[1]!.trim().toUpperCase();
    const words = spoken(named ? named[2]! : raw);
    if (!words) continue;
    const last = segments.at(-1);
    if (last && last.speaker === speaker) last.text = `${last.text} ${words}`;
    else segments.push({ speaker, text: words });
  }
  return segments;
}

/**
 * The whole script an AudioGenerator speaks: the nearest earlier step with text results (the
 * podcast's IteratorStep "script"), every item in order (its selected result, else its latest),
 * so the whole episode is spoken, not only its last segment.
 */
export function speechScript(def: WorkflowDefinition, step: StepDefinition, steps: readonly StepRecord[]): string {
  for (const { record } of earlier(def, step, steps)) {
    const texts = record.results.filter((result) => result.format === "text" || result.format === "html");
    if (texts.length === 0) continue;
    const byItem = new Map<number, ResultRecord>();
    for (const result of chosen(texts)) byItem.set(result.itemIndex ?? -1, result);
    return [...byItem.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, result]) => (result.format === "html" ? htmlToText(result.content, { links: false }) : result.content))
      .join("\n");
  }
  return "";
}

/** The first value named `name` in the earlier steps' answers (nearest first). */
function answer(def: WorkflowDefinition, step: StepDefinition, steps: readonly StepRecord[], name: string) {
  for (const { record } of earlier(def, step, steps)) {
    const value = record.values[name];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  return "";
}

/**
 * What an ImageAppender asks for: the earlier image prompts (a `prompts` section; each run of an
 * AppendResults step takes the next one), else a prompt from the nearest text result or the
 * profile; the size of the action's `params.aspectRatio`, else of the network the craft names; the brand colours and a headline for the
 * offline composer.
 */
export function imageRequest(
  def: WorkflowDefinition,
  step: StepDefinition,
  steps: readonly StepRecord[],
  profile: ProfileSnapshot | null,
  projectId: string,
): ImageRequest {
  const record = steps.find((candidate) => candidate.name === step.name);
  const before = earlier(def, step, steps);
  const prompts = before
    .flatMap(({ record: r }) => chosen(r.results).flatMap((result) => result.sections?.prompts ?? []))
    .map((prompt) => prompt.trim())
    .filter(Boolean);
  const firstText = before
    .flatMap(({ record: r }) => chosen(r.results))
    .find((result) => result.format !== "data" && result.content.trim());
  const textLine = (firstText?.content ?? "")
    .split(/\r?\n/)
    .map((line) => line.replace(/<[^>]*>|^[#\-*\s]+/g, "").trim())
    .find(Boolean);
  const topic = answer(def, step, steps, "topic") || answer(def, step, steps, "subject");
  const about = [profile?.name, profile?.description].filter(Boolean).join(" — ");
  const prompt =
    prompts.length > 0
      ? prompts[(record?.results.length ?? 0) % prompts.length]!
      : `A bright, professional marketing photo for ${topic || textLine || about || def.title}`;
  const network = answer(def, step, steps, "network").toLowerCase();
  const params = step.action && "params" in step.action ? step.action.params : {};
  const aspect = typeof params.aspectRatio === "string" ? ASPECT_SIZES[params.aspectRatio] : undefined;
  const colors = ["primaryColor", "accentColor", "secondaryColor"]
    .map((name) => answer(def, step, steps, name))
    .filter((value) => HEX.test(value));
  return {
    prompt: prompt.slice(0, 4000),
    size: aspect ?? NETWORK_SIZES[network] ?? DEFAULT_IMAGE_SIZE,
    projectId,
    headline: (topic || textLine || profile?.name || def.title).slice(0, 120),
    colors,
  };
}

/** An id the browser sends (an asset or a design): a short token of letters, digits, `-` and `_`. */
const ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * What the user chose for a media or design step, read from the values the browser sent with the
 * run (`{ assetId }`: an image of their own for an ImageAppender, `{ stockId }`: a stock photo for it;
 * `{ designId }`: the saved design
 * of a VisualDesigner). Undefined when it is absent; @throws Error naming the field when malformed.
 */
export function chosenId(
  raw: Readonly<Record<string, unknown>> | undefined,
  field: "assetId" | "stockId" | "designId",
): string | undefined {
  const value = raw?.[field];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string" || !ID.test(value)) throw new Error(`${field} must be an id`);
  return value;
}

/**
 * The result a VisualDesigner step keeps of a saved design: the design (to reopen it) and its PNG
 * as an asset (the gateway's download route, like an ImageAppender's image), named as the design.
 */
export function designResultData(designId: string, asset: MediaAssetRef): { design: JsonObject; asset: JsonObject } {
  return {
    design: {
      id: designId,
      name: asset.name,
      ...(asset.width ? { width: asset.width } : {}),
      ...(asset.height ? { height: asset.height } : {}),
    },
    asset: { ...asset },
  };
}
