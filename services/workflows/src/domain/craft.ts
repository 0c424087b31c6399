import type { JsonValue } from "@bufbuild/protobuf";
import type { ErrorCode } from "@crafter/kit/errors";
import type { StepDefinition, WorkflowDefinition } from "./definition";
import { coerceValue, isEmptyInputValue } from "./inputs";
import { resolveReference } from "./references";
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
 * it opens. The craft is NotStarted until something is saved or completed, InProgress while any
 * step is not completed, and Completed when the last step is.
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
  return record.state === "Completed" ? "completed" : "inprogress";
}

const same = (a: JsonValue | undefined, b: JsonValue | undefined) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The prefilled values of a step: each input's `defaultFrom` resolved against the profile and the
 * earlier steps, else its literal `default`, coerced to the input's shape.
 */
export function prefillValues(step: StepDefinition, profile: ProfileSnapshot | null, steps: StepRecord[]): Values {
  const defaults: Values = {};
  for (const input of step.inputs) {
    let value: unknown = input.defaultFrom ? resolveReference(input.defaultFrom, { profile, steps }) : undefined;
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
    const opened = openStep(stepDef, next[i]!, profile, next);
    if (isViewStep(stepDef)) {
      next[i] = { ...opened, state: "Completed", completedAt: now };
      continue;
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
  const action = step.action;
  if (action?.resultMode === "AppendResults" && action.maxResults !== undefined) {
    if (progress.steps[index]!.results.length >= action.maxResults) throw new CraftRuleError("ReachedMaxResults", "");
  }
  return step;
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
 * Completes a step with its validated values and (for a step with an action) its new result:
 * ReplaceResults keeps only the new one, AppendResults adds it. Later steps that had been
 * completed go back to NotStarted (their values are kept) and the next step opens as InProgress.
 */
export function completeStep(
  def: WorkflowDefinition,
  progress: CraftProgress,
  stepName: string,
  values: Values,
  result: ResultRecord | null,
  profile: ProfileSnapshot | null,
  now: Date,
): Completion {
  const { index, step } = findStep(def, stepName);
  const wasCompleted = progress.state === "Completed";
  let steps = progress.steps.map((record, i) =>
    i > index && record.state !== "NotInitialized"
      ? { ...record, state: "NotStarted" as const, completedAt: null }
      : record,
  );
  const record = steps[index]!;
  const results = !result
    ? record.results
    : step.action?.resultMode === "AppendResults"
      ? [...record.results, result]
      : [result];
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
  const steps = progress.steps.map((record, i) => {
    if (i === index) return { ...record, state: "InProgress" as const, completedAt: null };
    if (i > index && record.state !== "NotInitialized") {
      return { ...record, state: "NotStarted" as const, completedAt: null };
    }
    return record;
  });
  return { ...withDerived(steps, true), currentStep: stepName };
}
