import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { statusOf } from "./craft";
import type { InputDefinition, StepDefinition, WorkflowDefinition } from "./definition";
import type { CraftRecord, ResultRecord, StepRecord } from "./types";

/**
 * The craft view model of docs/api.md: a summary, and each step as JSON (its definition merged
 * with its state, values and results), so the web renders any workflow from data.
 */
export interface CraftSummaryView {
  craftId: string;
  craftName: string;
  workflowName: string;
  projectId: string;
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
    craftName: craft.craftName,
    workflowName: craft.workflowName,
    projectId: craft.projectId,
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
    engine: result.engine,
    framework: result.framework,
    note: result.note,
    usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
    createdAt: new Date(result.createdAt).toISOString(),
    selected: result.selected,
    data: result.data,
  });
}

function inputView(input: InputDefinition, record: StepRecord): JsonObject {
  return compact({
    name: input.name,
    kind: input.kind,
    label: input.label,
    placeholder: input.placeholder,
    description: input.description,
    required: input.required,
    options: input.options?.map((option) => ({ label: option.label, value: option.value })),
    defaultValue: record.defaults[input.name] ?? (input.default as JsonValue | undefined),
    maxLength: input.maxLength,
    maxItems: input.maxItems,
  });
}

export function stepView(def: StepDefinition, record: StepRecord, all: StepRecord[]): JsonObject {
  const source = def.resultsFrom ? all.find((step) => step.name === def.resultsFrom) : record;
  return compact({
    name: def.name,
    title: def.title,
    description: def.description,
    kind: def.kind,
    state: record.state,
    status: statusOf(record),
    inputs: def.inputs.map((input) => inputView(input, record)),
    values: record.values,
    action: def.action
      ? compact({
          kind: def.action.kind,
          label: def.action.label,
          resultMode: def.action.resultMode,
          resultViewTrigger: def.action.resultViewTrigger,
          maxResults: def.action.maxResults,
        })
      : undefined,
    viewer: def.viewer,
    resultsFrom: def.resultsFrom,
    results: (source?.results ?? []).map(resultView),
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
      return stepView(step, record, craft.steps);
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
