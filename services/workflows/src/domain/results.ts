import type { JsonValue } from "@bufbuild/protobuf";
import { isBlankHtml, sanitizeHtml } from "@crafter/html";
import {
  actionBehaviour,
  type OutputSpec,
  type StepDefinition,
  type WorkflowDefinition,
} from "@crafter/workflow-language";
import { CraftRuleError, findStep } from "./craft";
import { parseSections } from "./output";
import type { CraftProgress, ResultRecord, StepRecord } from "./types";

/** A change of a step's results asked by the user (PUT …/saveOrUpdateActionResult). */
export interface ResultChange {
  /** The result to change; absent: add a user-written result. */
  resultId?: string;
  /** New text: HTML results are sanitised, list results re-parsed into sections. */
  content?: string;
  /** New items of a list result, by section key (wins over `content`). */
  sections?: Record<string, string[]>;
  data?: JsonValue;
  selected?: boolean;
  delete?: boolean;
}

/** The engine name of results the user wrote. */
export const USER_ENGINE = "user";

/** The step whose results a step shows: its own, or those of `resultsFrom` for a view step. */
export function resultStep(def: WorkflowDefinition, stepName: string): { index: number; step: StepDefinition } {
  const found = findStep(def, stepName);
  return found.step.resultsFrom ? findStep(def, found.step.resultsFrom) : found;
}

type Output = OutputSpec;

function contentOf(
  output: Output,
  format: ResultRecord["format"],
  change: ResultChange,
): Pick<ResultRecord, "content" | "sections"> | undefined {
  if (format === "list" && output.format === "list") {
    let sections: Record<string, string[]> | undefined;
    if (change.sections) {
      sections = Object.fromEntries(
        output.sections.map((section) => [
          section.key,
          (change.sections![section.key] ?? []).map((item) => String(item).trim()).filter(Boolean),
        ]),
      );
    } else if (change.content !== undefined) {
      sections = parseSections(change.content, output.sections);
    } else {
      return undefined;
    }
    if (Object.values(sections).every((items) => items.length === 0)) {
      throw new CraftRuleError("CR_ERR_BAD_REQUEST", "Add at least one item.");
    }
    const content = output.sections
      .map((section) =>
        [`## ${section.heading}`, ...(sections[section.key] ?? []).map((item) => `- ${item}`)].join("\n"),
      )
      .join("\n\n");
    return { content, sections };
  }
  if (change.content === undefined) return undefined;
  const content = format === "html" ? sanitizeHtml(change.content) : change.content.trim();
  if (format === "html" ? isBlankHtml(content) : content === "")
    throw new CraftRuleError("CR_ERR_BAD_REQUEST", "The content is empty.");
  return { content };
}

const SINGLE_SELECT = new Set(["single select list", "image select", "crops image select"]);

/**
 * Applies the user's change to a step's results: edit (content, sections, data, selected),
 * delete, or add a user-written result honouring the action's resultMode and maxResults.
 * Selecting a result of a single-select viewer unselects the others.
 * @throws CraftRuleError: CR_ERR_BAD_REQUEST (no action, nothing to save, empty content),
 * NOT_FOUND (unknown result), CONFLICT (step not open yet), ReachedMaxResults.
 */
export function changeResults(
  def: WorkflowDefinition,
  progress: CraftProgress,
  stepName: string,
  change: ResultChange,
  newId: () => string,
  now: Date,
): CraftProgress {
  const { index, step } = resultStep(def, stepName);
  const action = step.action;
  // Media, design and browser steps keep assets (`data.asset`), with a prompt, script or name as content.
  const behaviour = actionBehaviour(action?.kind);
  const assets = behaviour === "media" || behaviour === "design" || behaviour === "browser";
  const output: OutputSpec | undefined =
    action && "output" in action && action.output ? action.output : assets ? { format: "data" } : undefined;
  if (!action || !output) throw new CraftRuleError("CR_ERR_BAD_REQUEST", `“${step.title}” has no results.`);
  const record = progress.steps[index]!;
  if (record.state === "NotInitialized")
    throw new CraftRuleError("CONFLICT", `Complete the steps before “${step.title}” first.`);
  const single = SINGLE_SELECT.has(def.steps[findStep(def, stepName).index]!.viewer ?? step.viewer ?? "");
  let results = [...record.results];

  if (!change.resultId) {
    if (change.delete) throw new CraftRuleError("CR_ERR_BAD_REQUEST", "Say which result to delete.");
    const format = output.format;
    const shaped = contentOf(output, format, change);
    if (!shaped) throw new CraftRuleError("CR_ERR_BAD_REQUEST", "Write the content of the result.");
    const added: ResultRecord = {
      id: newId(),
      ...shaped,
      format,
      engine: USER_ENGINE,
      usage: { inputTokens: 0, outputTokens: 0 },
      createdAt: now,
      ...(change.data !== undefined ? { data: change.data } : {}),
      ...(change.selected !== undefined ? { selected: change.selected } : {}),
    };
    if (action.resultMode === "ReplaceResults") {
      results = [added];
    } else {
      if (action.maxResults !== undefined && results.length >= action.maxResults) {
        throw new CraftRuleError("ReachedMaxResults", "");
      }
      results.push(added);
    }
    if (added.selected && single) results = results.map((r) => (r.id === added.id ? r : { ...r, selected: false }));
  } else {
    const at = results.findIndex((result) => result.id === change.resultId);
    if (at < 0) throw new CraftRuleError("NOT_FOUND", "Result not found.");
    if (change.delete) {
      results.splice(at, 1);
    } else {
      const current = results[at]!;
      const shaped = contentOf(output, current.format, change);
      if (!shaped && change.data === undefined && change.selected === undefined) {
        throw new CraftRuleError("CR_ERR_BAD_REQUEST", "Nothing to save: send content, sections, data or selected.");
      }
      results[at] = {
        ...current,
        ...(shaped ?? {}),
        ...(change.data !== undefined ? { data: change.data } : {}),
        ...(change.selected !== undefined ? { selected: change.selected } : {}),
      };
      if (change.selected && single) {
        results = results.map((r, i) => (i === at ? r : { ...r, selected: false }));
      }
    }
  }

  const steps: StepRecord[] = [...progress.steps];
  steps[index] = { ...record, results };
  return { ...progress, steps };
}

/** The name of a copy: "<name> (copy)", cut so it stays within `max` characters. */
export function copyName(name: string, max: number): string {
  const suffix = " (copy)";
  return `${name.slice(0, Math.max(1, max - suffix.length)).trimEnd()}${suffix}`;
}
