import type { JsonValue } from "@bufbuild/protobuf";
import {
  type InputDefinition,
  isTextAction,
  latestResult,
  type OfflineSpec,
  type OutputSpec,
  PLACEHOLDER,
  type PromptSpec,
  parseReference,
  type ReferenceScope,
  resolveReference,
  type StepDefinition,
  type WorkflowDefinition,
} from "@crafter/workflow-language";
import type { ProfileSnapshot, StepRecord, Values } from "./types";

/** What the offline composers read: the user's own inputs, by step, and the profile. */
export interface ComposeContext {
  /** Values of the step being completed. */
  values: Values;
  /** Every step's values and latest result sections, by step name. */
  steps: Record<string, { values: Values; sections?: Record<string, string[]>; content?: string; data?: JsonValue }>;
  profile: ProfileSnapshot | null;
  /** The label of each select value, by input name of the step being completed. */
  labels: Record<string, string>;
  /** IteratorStep: the item this run is for and its index (from 0). */
  item?: JsonValue;
  itemIndex?: number;
  /** Inline text generation: the raw params (e.g. `text`, the selected text). */
  params?: Record<string, JsonValue>;
  /** The project's brand voice words to avoid: the offline draft never contains them. */
  avoid?: string[];
}

/** One generation: the prompt for a model and, for the offline engine, the inputs it writes from. */
export interface GenerationRequest {
  workflowName: string;
  stepName: string;
  system: string;
  prompt: string;
  maxOutputTokens?: number;
  temperature?: number;
  output: OutputSpec;
  offline: OfflineSpec;
  context: ComposeContext;
}

/** What a generation is for besides the step's values: an IteratorStep item, inline params. */
export interface GenerationExtras {
  item?: JsonValue;
  itemIndex?: number;
  params?: Record<string, JsonValue>;
}

/** The label of a select option value, or the value itself. */
function optionLabel(input: InputDefinition | undefined, value: JsonValue | undefined): JsonValue | undefined {
  if (!input?.options || typeof value !== "string") return value;
  return input.options.find((option) => option.value === value)?.label ?? value;
}

function isBlank(value: JsonValue | undefined): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === "string" && value.trim() === "") ||
    (Array.isArray(value) && value.length === 0)
  );
}

/**
 * Fills `{{reference}}` placeholders line by line. A list alone on its line becomes `- item`
 * lines, a list inside a sentence is comma-separated, a select shows its option's label, and a
 * line whose placeholders are all empty is left out (so optional inputs need no conditionals).
 */
export function renderTemplate(
  template: string,
  def: WorkflowDefinition,
  current: StepDefinition,
  scope: ReferenceScope,
): string {
  const inputOf = (text: string): InputDefinition | undefined => {
    const ref = parseReference(text);
    if (ref?.source !== "values") return undefined;
    const step = ref.step === null ? current : def.steps.find((candidate) => candidate.name === ref.step);
    return step?.inputs.find((input) => input.name === ref.input);
  };
  const lines: string[] = [];
  for (const line of template.split("\n")) {
    const refs = [...line.matchAll(PLACEHOLDER)].map((match) => match[1]!);
    if (refs.length === 0) {
      lines.push(line);
      continue;
    }
    const resolved = refs.map((ref) => optionLabel(inputOf(ref), resolveReference(ref, scope)));
    if (resolved.every(isBlank)) continue;
    const alone = refs.length === 1 && line.trim() === line.trim().match(PLACEHOLDER)?.[0];
    if (alone && Array.isArray(resolved[0])) {
      lines.push(...resolved[0].map((item) => `- ${String(item)}`));
      continue;
    }
    let at = 0;
    lines.push(
      line.replace(PLACEHOLDER, () => {
        const value = resolved[at++];
        if (isBlank(value)) return "(not given)";
        return Array.isArray(value) ? value.map(String).join(", ") : String(value);
      }),
    );
  }
  return lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Builds the generation of a step's action from the step's validated values and the craft. */
export function buildGeneration(
  def: WorkflowDefinition,
  step: StepDefinition,
  values: Values,
  steps: StepRecord[],
  profile: ProfileSnapshot | null,
  extras: GenerationExtras = {},
): GenerationRequest {
  const action = step.action;
  if (!isTextAction(action)) throw new Error(`step ${step.name} has no text action`);
  return buildFrom(def, step, action, values, steps, profile, extras);
}

/**
 * Builds an inline text generation (an InlineTextGenerator input's generator or a command):
 * templates see the step's values and the raw `params` (e.g. `{{params.text}}`); it writes text.
 */
export function buildInlineGeneration(
  def: WorkflowDefinition,
  step: StepDefinition,
  generator: { prompt: PromptSpec; offline: OfflineSpec; maxLength?: number },
  values: Values,
  params: Record<string, JsonValue>,
  steps: StepRecord[],
  profile: ProfileSnapshot | null,
): GenerationRequest {
  const output: OutputSpec = { format: "text", maxChars: generator.maxLength };
  return buildFrom(
    def,
    step,
    { prompt: generator.prompt, offline: generator.offline, output },
    values,
    steps,
    profile,
    {
      params,
    },
  );
}

function buildFrom(
  def: WorkflowDefinition,
  step: StepDefinition,
  action: { prompt: PromptSpec; offline: OfflineSpec; output: OutputSpec },
  values: Values,
  steps: StepRecord[],
  profile: ProfileSnapshot | null,
  extras: GenerationExtras,
): GenerationRequest {
  const scope: ReferenceScope = { profile, steps, values, ...extras };
  const labels: Record<string, string> = {};
  for (const input of step.inputs) {
    const label = optionLabel(input, values[input.name]);
    if (input.options && typeof label === "string") labels[input.name] = label;
  }
  const context: ComposeContext = {
    values,
    profile,
    labels,
    ...extras,
    steps: Object.fromEntries(
      steps.map((record) => {
        const result = latestResult(record);
        return [
          record.name,
          { values: record.values, sections: result?.sections, content: result?.content, data: result?.data },
        ];
      }),
    ),
  };
  return {
    workflowName: def.name,
    stepName: step.name,
    system: renderTemplate(action.prompt.system, def, step, scope),
    prompt: renderTemplate(action.prompt.template, def, step, scope),
    maxOutputTokens: action.prompt.maxOutputTokens,
    temperature: action.prompt.temperature,
    output: action.output,
    offline: action.offline,
    context,
  };
}
