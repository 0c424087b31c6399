import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { ActionDefinition, InputDefinition, StepDefinition, WorkflowDefinition } from "@crafter/workflow-language";
import { statusOf } from "./craft";
import { displayName } from "./craft-index";
import { hiddenInputs } from "./inputs";
import type { CraftRecord, ProfileSnapshot, ResultRecord, StepRecord } from "./types";

/**
 * The craft view model of docs/api.md: a summary, and each step as JSON (its definition merged
 * with its state, values and results), so the web renders any workflow from data.
 */
export interface CraftSummaryView {
  craftId: string;
  craftName: string;
  workflowName: string;
  projectId: string;
  profileId: string;
  state: string;
  favorite: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface CraftView {
  summary: CraftSummaryView;
  version: number;
  profileId: string;
  currentStep: string;
  steps: JsonObject[];
}

/** Drops undefined members, which JSON (and protobuf Struct) cannot hold. */
export function compact(object: Record<string, JsonValue | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(object)) if (value !== undefined) out[key] = value;
  return out;
}

export function summaryView(craft: CraftRecord): CraftSummaryView {
  return {
    craftId: craft.id,
    craftName: displayName(craft),
    workflowName: craft.workflowName,
    projectId: craft.projectId,
    profileId: craft.profileId,
    state: craft.state,
    favorite: craft.favorite ?? false,
    createdAt: craft.createdAt,
    updatedAt: craft.updatedAt,
  };
}

export function resultView(result: ResultRecord): JsonObject {
  return compact({
    id: result.id,
    content: result.content,
    format: result.format,
    sections: result.sections,
    data: result.data,
    item: result.item,
    itemIndex: result.itemIndex,
    selected: result.selected,
    engine: result.engine,
    framework: result.framework,
    note: result.note,
    usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
    createdAt: new Date(result.createdAt).toISOString(),
  });
}

function inputView(input: InputDefinition, record: StepRecord, hidden: boolean): JsonObject {
  return compact({
    name: input.name,
    kind: input.kind,
    label: input.label,
    placeholder: input.placeholder,
    description: input.description,
    required: input.required,
    options: input.options?.map((option) => ({ label: option.label, value: option.value })),
    defaultValue: record.defaults[input.name] ?? (input.default as JsonValue | undefined),
    min: input.min,
    max: input.max,
    step: input.step,
    maxLength: input.maxLength,
    maxItems: input.maxItems,
    format: input.format,
    source: input.source as JsonValue | undefined,
    showWhen: input.showWhen as JsonValue | undefined,
    hidden: input.showWhen ? hidden : undefined,
  });
}

function actionView(action: ActionDefinition): JsonObject {
  return compact({
    kind: action.kind,
    label: action.label,
    resultMode: action.resultMode,
    resultViewTrigger: action.resultViewTrigger,
    maxResults: action.maxResults,
    credits: action.credits,
    commands:
      action.kind === "InlineTextGenerator"
        ? action.commands.map((command) => ({ name: command.name, label: command.label }))
        : undefined,
  });
}

/** An IteratorStep's items, each with the results written for it. */
function itemsView(record: StepRecord): JsonValue[] | undefined {
  if (!record.items) return undefined;
  return record.items.map((item, index) => {
    const resultIds = record.results.filter((result) => result.itemIndex === index).map((result) => result.id);
    return { index, item, state: resultIds.length > 0 ? "Completed" : "NotStarted", resultIds };
  });
}

export function stepView(
  def: StepDefinition,
  record: StepRecord,
  all: StepRecord[],
  profile: ProfileSnapshot | null = null,
): JsonObject {
  const source = def.resultsFrom ? all.find((step) => step.name === def.resultsFrom) : record;
  const hidden = hiddenInputs(def, record.values, { profile, steps: all });
  return compact({
    name: def.name,
    title: def.title,
    description: def.description,
    kind: def.kind,
    state: record.state,
    status: statusOf(record),
    skipped: record.skipped ? true : undefined,
    inputs: def.inputs.map((input) => inputView(input, record, hidden.has(input.name))),
    values: record.values,
    action: def.action ? actionView(def.action) : undefined,
    viewer: def.viewer,
    resultsFrom: def.resultsFrom,
    results: (source?.results ?? []).map(resultView),
    items: def.kind === "IteratorStep" ? (itemsView(record) ?? []) : undefined,
  });
}

export function craftView(def: WorkflowDefinition, craft: CraftRecord): CraftView {
  return {
    summary: summaryView(craft),
    version: craft.workflowVersion,
    profileId: craft.profileId,
    currentStep: craft.currentStep,
    steps: def.steps.map((step, i) => {
      const record = craft.steps.find((candidate) => candidate.name === step.name) ?? craft.steps[i]!;
      return stepView(step, record, craft.steps, craft.profile);
    }),
  };
}

/** Every result of a craft, step by step (view steps only show another step's results). */
export function resultsView(def: WorkflowDefinition, craft: CraftRecord): JsonObject[] {
  return def.steps.flatMap((step) => {
    if (!step.action) return [];
    const record = craft.steps.find((candidate) => candidate.name === step.name);
    return (record?.results ?? []).map((result) => ({
      ...resultView(result),
      stepName: step.name,
      stepTitle: step.title,
      viewer: step.viewer,
    }));
  });
}
