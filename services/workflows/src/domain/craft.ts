import type { JsonValue } from "@bufbuild/protobuf";
import type { ErrorCode } from "@crafter/kit/errors";
import {
  evaluateCondition,
  type InlineGenerator,
  isBrowserStep,
  isEmptyInputValue,
  isMediaStep,
  resolveReference,
  type StepDefinition,
  type WorkflowDefinition,
} from "@crafter/workflow-language";
import { coerceValue } from "./inputs";
import { profilePrefill } from "./profile-prefill";
import type { CraftProgress, ProfileSnapshot, ResultRecord, StepRecord, StepStatus, Values } from "./types";

/**
 * The step state machine of a craft (pure):
 *
 *   NotInitialized ──open──▶ NotStarted ──save / start──▶ InProgress ──complete──▶ Completed
 *                                 ▲                                                 │
 *                                 └──── a step before it is edited ◀──── edit ──────┘ (→ InProgress)
 *
 * A step opens (gets its prefilled values) when every step before it is completed. Completing a
 * step opens the next one as InProgress; a view step (no inputs, no action) completes as soon as
 * it opens, and so does a step whose `skipWhen` holds: it is Completed with status `skipped` and
 * never runs. A media step (ImageAppender, AudioGenerator) and a browser step (TemplateDesigner,
 * EmailAttachmentUploader) also complete when they open, not skipped: their results are made or
 * saved on demand (RunAction, SaveActionResult) and never hold up the craft. A design step
 * (VisualDesigner) waits for the user's design like a form. An IteratorStep fixes its items (the
 * list its action runs over) when it opens. The craft is NotStarted until something is saved or
 * completed, InProgress while any step is not completed, and Completed when the last step is.
 */

/** A rule of the state machine was broken; `code` is the spec's error code to answer with. */
export class CraftRuleError extends Error {
  override name = "CraftRuleError";
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isViewStep(step: StepDefinition): boolean {
  return !step.action && step.inputs.length === 0;
}

export function statusOf(record: StepRecord): StepStatus {
  if (record.skipped) return "skipped";
  return record.state === "Completed" ? "completed" : "inprogress";
}

/**
 * The items an IteratorStep runs over: its `iterator.over` list (result section or list input of
 * an earlier step), blanks dropped, at most `iterator.maxItems`.
 */
export function iteratorItems(step: StepDefinition, profile: ProfileSnapshot | null, steps: StepRecord[]): JsonValue[] {
  if (!step.iterator) return [];
  const list = resolveReference(step.iterator.over, { profile, steps });
  const items = Array.isArray(list) ? list : isEmptyInputValue(list) ? [] : [list!];
  return items.filter((item) => !isEmptyInputValue(item)).slice(0, step.iterator.maxItems);
}

/** Whether a step is left out when it opens: its skipWhen holds. */
export function shouldSkip(step: StepDefinition, profile: ProfileSnapshot | null, steps: StepRecord[]): boolean {
  if (!step.skipWhen) return false;
  return evaluateCondition(step.skipWhen, (ref) => resolveReference(ref, { profile, steps }));
}

const same = (a: JsonValue | undefined, b: JsonValue | undefined) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The prefilled values of a step: each input's `defaultFrom` resolved against the profile and the
 * earlier steps, else its literal `default`, coerced to the input's shape.
 */
export function prefillValues(step: StepDefinition, profile: ProfileSnapshot | null, steps: StepRecord[]): Values {
  const defaults: Values = {};
  for (const input of step.inputs) {
    let value: unknown = input.defaultFrom
      ? resolveReference(input.defaultFrom, { profile, steps })
      : profilePrefill(input.name, profile);
    if (isEmptyInputValue(value as JsonValue | undefined)) value = input.default;
    const coerced = coerceValue(input, value);
    if (coerced !== undefined && !(coerced instanceof Error) && !isEmptyInputValue(coerced)) {
      defaults[input.name] = coerced;
    }
  }
  return defaults;
}

/**
 * Opens a step: computes its prefills and merges them into its values. A value the user has not
 * changed since the last prefill (it still equals the old default) follows the new default, so
 * regenerating an earlier step refreshes later prefills without losing the user's own edits.
 */
function openStep(step: StepDefinition, record: StepRecord, profile: ProfileSnapshot | null, steps: StepRecord[]) {
  const defaults = prefillValues(step, profile, steps);
  const values: Values = { ...record.values };
  for (const input of step.inputs) {
    const current = values[input.name];
    const untouched = isEmptyInputValue(current) || same(current, record.defaults[input.name]);
    if (!untouched) continue;
    if (defaults[input.name] !== undefined) values[input.name] = defaults[input.name]!;
    else delete values[input.name];
  }
  return { ...record, values, defaults };
}

/** A later step goes back to NotStarted (values and results kept); its skip is decided again. */
function reset(record: StepRecord): StepRecord {
  const { skipped: _, ...rest } = record;
  return { ...rest, state: "NotStarted", completedAt: null };
}

function currentStepOf(progress: StepRecord[]): string {
  return (progress.find((step) => step.state !== "Completed") ?? progress[progress.length - 1]!).name;
}

function withDerived(steps: StepRecord[], touched: boolean): CraftProgress {
  const allDone = steps.every((step) => step.state === "Completed");
  return {
    steps,
    currentStep: currentStepOf(steps),
    state: allDone ? "Completed" : touched ? "InProgress" : "NotStarted",
  };
}

/**
 * Opens steps from `from` on while the previous one is completed: the first opened step gets
 * `state`, view steps complete on the spot.
 */
function openFrom(
  def: WorkflowDefinition,
  steps: StepRecord[],
  from: number,
  state: "NotStarted" | "InProgress",
  profile: ProfileSnapshot | null,
  now: Date,
): StepRecord[] {
  const next = [...steps];
  for (let i = from; i < def.steps.length; i++) {
    if (i > 0 && next[i - 1]!.state !== "Completed") break;
    const stepDef = def.steps[i]!;
    const { skipped: _, items: __, ...record } = next[i]!;
    if (shouldSkip(stepDef, profile, next)) {
      next[i] = { ...record, state: "Completed", skipped: true, completedAt: now };
      continue;
    }
    const opened = openStep(stepDef, record, profile, next);
    if (isViewStep(stepDef) || isMediaStep(stepDef) || isBrowserStep(stepDef)) {
      next[i] = { ...opened, state: "Completed", completedAt: now };
      continue;
    }
    if (stepDef.kind === "IteratorStep") {
      opened.items = iteratorItems(stepDef, profile, next);
    }
    next[i] = { ...opened, state };
    break;
  }
  return next;
}

/** The progress of a new craft: its first step open (NotStarted, prefilled), the rest NotInitialized. */
export function startCraft(def: WorkflowDefinition, profile: ProfileSnapshot | null, now: Date): CraftProgress {
  const blank: StepRecord[] = def.steps.map((step) => ({
    name: step.name,
    state: "NotInitialized",
    values: {},
    defaults: {},
    results: [],
    completedAt: null,
  }));
  return withDerived(openFrom(def, blank, 0, "NotStarted", profile, now), false);
}

export function findStep(def: WorkflowDefinition, stepName: string): { index: number; step: StepDefinition } {
  const index = def.steps.findIndex((step) => step.name === stepName);
  if (index < 0) {
    throw new CraftRuleError("CR_ERR_BAD_REQUEST", `${def.title} has no step "${stepName}".`);
  }
  return { index, step: def.steps[index]! };
}

function assertOpen(def: WorkflowDefinition, progress: CraftProgress, index: number): void {
  const pending = progress.steps.slice(0, index).findIndex((step) => step.state !== "Completed");
  if (pending >= 0 || progress.steps[index]!.state === "NotInitialized") {
    const blocking = pending >= 0 ? def.steps[pending]! : def.steps[index]!;
    throw new CraftRuleError("CONFLICT", `Complete “${blocking.title}” first.`);
  }
  if (progress.steps[index]!.skipped) {
    throw new CraftRuleError("CR_ERR_BAD_REQUEST", `“${def.steps[index]!.title}” is skipped for this craft.`);
  }
}

/**
 * Checks that `adding` more results fit the step: AppendResults with maxResults counts every
 * result kept (all items of an IteratorStep). @throws CraftRuleError ReachedMaxResults.
 */
export function assertRoomFor(step: StepDefinition, record: StepRecord, adding: number): void {
  const action = step.action;
  if (action?.resultMode !== "AppendResults" || action.maxResults === undefined) return;
  if (record.results.length + adding > action.maxResults) throw new CraftRuleError("ReachedMaxResults", "");
}

/** How many results one run of the step's action writes: one per item for an IteratorStep. */
export function runsOf(step: StepDefinition, record: StepRecord): number {
  if (step.kind !== "IteratorStep") return 1;
  return record.items?.length ?? 0;
}

/** Stores values of an open step without completing it; the step and the craft become InProgress. */
export function saveStepValues(
  def: WorkflowDefinition,
  progress: CraftProgress,
  stepName: string,
  values: Values,
): CraftProgress {
  const { index } = findStep(def, stepName);
  assertOpen(def, progress, index);
  const record = progress.steps[index]!;
  if (record.state === "Completed") {
    throw new CraftRuleError("CONFLICT", `“${def.steps[index]!.title}” is completed. Edit it to change its values.`);
  }
  const steps = [...progress.steps];
  steps[index] = { ...record, values: { ...record.values, ...values }, state: "InProgress" };
  return withDerived(steps, true);
}

/**
 * Checks that a step may be completed now (every earlier step completed, the step open, and
 * room for another result), before any work is done.
 */
export function assertCanComplete(def: WorkflowDefinition, progress: CraftProgress, stepName: string): StepDefinition {
  const { index, step } = findStep(def, stepName);
  assertOpen(def, progress, index);
  if (isViewStep(step)) throw new CraftRuleError("CR_ERR_BAD_REQUEST", `“${step.title}” has nothing to complete.`);
  const record = progress.steps[index]!;
  if (step.kind === "IteratorStep" && runsOf(step, record) === 0) {
    throw new CraftRuleError("ConflictingInputError", `“${step.title}” has no items to work through.`);
  }
  if (step.action && step.action.kind !== "InlineTextGenerator") assertRoomFor(step, record, runsOf(step, record));
  return step;
}

/**
 * Checks that a step's action may run now without completing the step ("generate more"): the
 * step is open and not skipped, its action is of `actionType`, and its results have room.
 */
export function assertCanRun(
  def: WorkflowDefinition,
  progress: CraftProgress,
  stepName: string,
  actionType: string,
): StepDefinition {
  const { index, step } = findStep(def, stepName);
  assertOpen(def, progress, index);
  if (!step.action || step.action.kind !== actionType) {
    throw new CraftRuleError(
      "CR_ERR_BAD_REQUEST",
      `“${step.title}” has ${step.action ? `a ${step.action.kind}` : "no"} action, not ${actionType}.`,
    );
  }
  if (step.action.kind === "InlineTextGenerator") {
    throw new CraftRuleError("CR_ERR_BAD_REQUEST", `Use generateInlineText for “${step.title}”.`);
  }
  const record = progress.steps[index]!;
  if (step.kind === "IteratorStep" && runsOf(step, record) === 0) {
    throw new CraftRuleError("ConflictingInputError", `“${step.title}” has no items to work through.`);
  }
  assertRoomFor(step, record, runsOf(step, record));
  return step;
}

/** ReplaceResults keeps only the new results; AppendResults adds them. */
function mergeResults(step: StepDefinition, current: ResultRecord[], added: ResultRecord[]): ResultRecord[] {
  if (added.length === 0) return current;
  return step.action?.resultMode === "AppendResults" ? [...current, ...added] : added;
}

/**
 * Stores the results of a run of a step's action that does not complete the step, with the
 * values it ran with. An open step becomes InProgress; a completed one stays completed (so the
 * later steps keep their state), and so does the craft.
 */
export function addResults(
  def: WorkflowDefinition,
  progress: CraftProgress,
  stepName: string,
  values: Values,
  results: ResultRecord[],
): CraftProgress {
  const { index, step } = findStep(def, stepName);
  const steps = [...progress.steps];
  const record = steps[index]!;
  steps[index] = {
    ...record,
    values,
    results: mergeResults(step, record.results, results),
    state: record.state === "Completed" ? "Completed" : "InProgress",
  };
  return withDerived(steps, true);
}

/** The step being completed is marked InProgress while its action runs (and so is the craft). */
export function markInProgress(def: WorkflowDefinition, progress: CraftProgress, stepName: string): CraftProgress {
  const { index } = findStep(def, stepName);
  const steps = [...progress.steps];
  steps[index] = { ...steps[index]!, state: "InProgress" };
  return { ...withDerived(steps, true), currentStep: stepName };
}

export interface Completion {
  progress: CraftProgress;
  /** True when this completion made the craft Completed. */
  craftCompleted: boolean;
}

/**
 * Completes a step with its validated values and (for a step with an action) its new results
 * (one per item for an IteratorStep): ReplaceResults keeps only the new ones, AppendResults adds them. Later steps that had been
 * completed go back to NotStarted (their values are kept) and the next step opens as InProgress.
 */
export function completeStep(
  def: WorkflowDefinition,
  progress: CraftProgress,
  stepName: string,
  values: Values,
  added: ResultRecord[],
  profile: ProfileSnapshot | null,
  now: Date,
): Completion {
  const { index, step } = findStep(def, stepName);
  const wasCompleted = progress.state === "Completed";
  let steps = progress.steps.map((record, i) =>
    i > index && record.state !== "NotInitialized" ? reset(record) : record,
  );
  const record = steps[index]!;
  const results = mergeResults(step, record.results, added);
  steps[index] = { ...record, values, results, state: "Completed", completedAt: now };
  steps = openFrom(def, steps, index + 1, "InProgress", profile, now);
  const next = withDerived(steps, true);
  return { progress: next, craftCompleted: next.state === "Completed" && !wasCompleted };
}

/**
 * Reopens a completed step for editing (InProgress); every later step that was opened goes back
 * to NotStarted, keeping its values and results.
 */
export function editStep(def: WorkflowDefinition, progress: CraftProgress, stepName: string): CraftProgress {
  const { index, step } = findStep(def, stepName);
  assertOpen(def, progress, index);
  if (isViewStep(step)) throw new CraftRuleError("CR_ERR_BAD_REQUEST", `“${step.title}” has nothing to edit.`);
  // Reopening an earlier step re-decides every later skip and iterator list when they reopen.
  const steps = progress.steps.map((record, i) => {
    if (i === index) return { ...record, state: "InProgress" as const, completedAt: null };
    if (i > index && record.state !== "NotInitialized") return reset(record);
    return record;
  });
  return { ...withDerived(steps, true), currentStep: stepName };
}

/** What `generateInlineText` runs for a name: an InlineTextGenerator input's generator or a command. */
export interface InlineTarget {
  step: StepDefinition;
  generator: InlineGenerator;
  credits: number;
  label: string;
}

/**
 * Finds the inline generator `name` of an open step: an InlineTextGenerator input with a
 * generator, or a command of the step's InlineTextGenerator action.
 * @throws CraftRuleError CR_ERR_BAD_REQUEST when the step has no such generator.
 */
export function inlineTarget(
  def: WorkflowDefinition,
  progress: CraftProgress,
  stepName: string,
  name: string,
): InlineTarget {
  const { index, step } = findStep(def, stepName);
  assertOpen(def, progress, index);
  const input = step.inputs.find((candidate) => candidate.name === name && candidate.generator);
  if (input?.generator) {
    return { step, generator: input.generator, credits: input.generator.credits ?? 1, label: input.label };
  }
  const action = step.action;
  const command = action?.kind === "InlineTextGenerator" ? action.commands.find((c) => c.name === name) : undefined;
  if (action?.kind === "InlineTextGenerator" && command) {
    return { step, generator: command, credits: command.credits ?? action.credits, label: command.label };
  }
  throw new CraftRuleError("CR_ERR_BAD_REQUEST", `“${step.title}” has no inline generator “${name}”.`);
}
