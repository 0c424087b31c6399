import { actionBehaviour } from "@crafter/workflow-language";
import type { CraftStep } from "../../api/types";
import { countLabel, formatNumber } from "../../shared/format";

// What the page does for each action kind is the workflow language's `actionBehaviour`: stream
// (TextGenerator, promptWriterAction), function (FunctionCaller), inline (InlineTextGenerator),
// media (ImageAppender, AudioGenerator: the step is done when it opens, its image or audio made on
// demand), design (VisualDesigner: the canvas; saving the design completes the step) or browser
// (TemplateDesigner, EmailAttachmentUploader: done when it opens, the user's picks saved as results).

export function isSkippedStep(step: Pick<CraftStep, "status" | "skipped">): boolean {
  return step.status === "skipped" || step.skipped === true;
}

/**
 * "Generate more" (POST /{id}/{stepName}/{actionType}) is offered on a step whose action makes
 * results (stream or function kinds). With AppendResults it adds; with ReplaceResults it redoes.
 */
export function canGenerateMore(step: Pick<CraftStep, "action">): boolean {
  const behaviour = actionBehaviour(step.action?.kind);
  return behaviour === "stream" || behaviour === "function" || behaviour === "media";
}

/** A step whose image or audio the media service makes (ImageAppender, AudioGenerator). */
export function isMediaStep(step: Pick<CraftStep, "action">): boolean {
  return actionBehaviour(step.action?.kind) === "media";
}

/** A VisualDesigner step: the canvas, completed by saving the design. */
export function isDesignStep(step: Pick<CraftStep, "action">): boolean {
  return actionBehaviour(step.action?.kind) === "design";
}

/** A step whose results are assets (media, design, browser kinds), not text the user writes. */
export function keepsAssets(step: Pick<CraftStep, "action">): boolean {
  const behaviour = actionBehaviour(step.action?.kind);
  return behaviour === "media" || behaviour === "design" || behaviour === "browser";
}

/**
 * The label of the generate-more button for the step's result mode; a media step says what it
 * makes ("Record with AI voice") until it has a result to redo.
 */
export function generateMoreLabel(step: Pick<CraftStep, "action" | "results">): string {
  const media = isMediaStep(step);
  if (media && step.action?.label && (!step.results?.length || step.action.resultMode === "AppendResults"))
    return step.action.label;
  return step.action?.resultMode === "ReplaceResults" ? "Regenerate" : "Generate more";
}

/** "3 / 5 results" when the step has a limit; the server enforces it (ReachedMaxResults). */
export function resultCountLabel(count: number, maxResults: number | undefined): string {
  if (maxResults) return `${formatNumber(count)} / ${countLabel(maxResults, "result")}`;
  return countLabel(count, "result");
}
