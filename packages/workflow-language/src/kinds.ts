/**
 * The kinds of the workflow language (spec section 3): inputs, viewers, actions and steps. The web
 * keys its renderers by these types, so a kind added here does not compile without a renderer.
 */

export const INPUT_KINDS = [
  "text",
  "font",
  "number",
  "slider",
  "autoComplete",
  "select",
  "radioSelect",
  "thirdPartyObjectPicker",
  "craftPicker",
  "colorPicker",
  "chipText",
  "datePicker",
  "dateRangePicker",
  "contextSelector",
  "bulletPoint",
  "inlineCraftPicker",
  "InlineTextGenerator",
  "url",
] as const;

export const VIEWER_KINDS = [
  "text list",
  "plain text",
  "rich text",
  "single select list",
  "multi select list",
  "bullet list",
  "keywords",
  "grid",
  "image select",
  "crops image select",
  "audio player",
  "visual designer",
  "website audit summary",
  "template designer",
  "email attachment uploader",
] as const;

/** Action kinds that write text with an engine (prompt + output + offline composer). */
export const TEXT_ACTION_KINDS = ["TextGenerator", "promptWriterAction"] as const;
/**
 * Action kinds the media service runs for the engine: the step completes when it opens (it never
 * holds up the craft) and its action runs on demand (RunAction), storing an asset in its result.
 */
export const MEDIA_ACTION_KINDS = ["ImageAppender", "AudioGenerator"] as const;
/**
 * The canvas designer: the step waits for the user's design; completing it with `{ designId }`
 * stores the saved design and its PNG (a designer asset of the media service) as its result.
 */
export const DESIGN_ACTION_KINDS = ["VisualDesigner"] as const;
/**
 * Action kinds the browser runs (the email designer, uploads): like a media step, the step
 * completes when it opens (it never holds up the craft) and the user's picks and uploads are saved
 * as its results (SaveActionResult).
 */
export const BROWSER_ACTION_KINDS = ["TemplateDesigner", "EmailAttachmentUploader"] as const;

export const STEP_KINDS = ["FormStep", "IteratorStep"] as const;
export const RESULT_MODES = ["ReplaceResults", "AppendResults"] as const;
export const RESULT_VIEW_TRIGGERS = ["AfterOpen", "Manual"] as const;
export const FORMAT_CHECKS = ["Url", "DomainName", "Email"] as const;
/** The functions a FunctionCaller may call (implemented in services/workflows/src/functions). */
export const FUNCTION_NAMES = ["websiteAudit", "keywordResearch", "competitorResearch"] as const;

export type InputKind = (typeof INPUT_KINDS)[number];
export type ViewerKind = (typeof VIEWER_KINDS)[number];
export type TextActionKind = (typeof TEXT_ACTION_KINDS)[number];
export type DesignActionKind = (typeof DESIGN_ACTION_KINDS)[number];
export type BrowserActionKind = (typeof BROWSER_ACTION_KINDS)[number];
export type MediaActionKind = (typeof MEDIA_ACTION_KINDS)[number];
export type ActionKind =
  | TextActionKind
  | MediaActionKind
  | DesignActionKind
  | BrowserActionKind
  | "InlineTextGenerator"
  | "FunctionCaller";
export type StepKind = (typeof STEP_KINDS)[number];
export type FunctionName = (typeof FUNCTION_NAMES)[number];

export function isInputKind(kind: unknown): kind is InputKind {
  return (INPUT_KINDS as readonly unknown[]).includes(kind);
}

export function isViewerKind(kind: unknown): kind is ViewerKind {
  return (VIEWER_KINDS as readonly unknown[]).includes(kind);
}

export function isMediaActionKind(kind: unknown): kind is MediaActionKind {
  return (MEDIA_ACTION_KINDS as readonly unknown[]).includes(kind);
}

export function isDesignActionKind(kind: unknown): kind is DesignActionKind {
  return (DESIGN_ACTION_KINDS as readonly unknown[]).includes(kind);
}

export function isBrowserActionKind(kind: unknown): kind is BrowserActionKind {
  return (BROWSER_ACTION_KINDS as readonly unknown[]).includes(kind);
}

/**
 * What running an action of a kind does (engine contract section 1):
 * - stream: TextGenerator, promptWriterAction write text with an engine, streamed;
 * - function: FunctionCaller calls a function, nothing streams but its result;
 * - inline: InlineTextGenerator's commands write inline text (generateInlineText);
 * - media: ImageAppender, AudioGenerator make an image or audio asset through the media service (or
 *   keep an image the user picked);
 * - design: VisualDesigner, the canvas; completing the step stores the saved design;
 * - browser: TemplateDesigner, EmailAttachmentUploader, whose picks and uploads the browser saves.
 */
export type ActionBehaviour = "stream" | "function" | "inline" | "media" | "design" | "browser";

/** The behaviour of an action kind; null for none or a kind the language does not know. */
export function actionBehaviour(kind: string | null | undefined): ActionBehaviour | null {
  if (kind === "FunctionCaller") return "function";
  if (kind === "InlineTextGenerator") return "inline";
  if ((TEXT_ACTION_KINDS as readonly unknown[]).includes(kind)) return "stream";
  if (isMediaActionKind(kind)) return "media";
  if (isDesignActionKind(kind)) return "design";
  if (isBrowserActionKind(kind)) return "browser";
  return null;
}
