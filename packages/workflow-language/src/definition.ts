import { z } from "zod";
import { CONDITION_OPS, type Condition, conditionRefs } from "./conditions";
import {
  BROWSER_ACTION_KINDS,
  DESIGN_ACTION_KINDS,
  FORMAT_CHECKS,
  FUNCTION_NAMES,
  INPUT_KINDS,
  isBrowserActionKind,
  isDesignActionKind,
  isMediaActionKind,
  MEDIA_ACTION_KINDS,
  RESULT_MODES,
  RESULT_VIEW_TRIGGERS,
  STEP_KINDS,
  TEXT_ACTION_KINDS,
  VIEWER_KINDS,
} from "./kinds";
import { parseReference, type ReferencePlace, referenceProblem } from "./references";

/**
 * The shape of a workflow definition (spec section 3) and the checks a definition must pass to
 * load. Definitions are data (services/workflows/src/definitions/*.v<version>.ts); a definition
 * that fails a check does not load, with each bad field named.
 */

/**
 * What the definition checks need to know of an offline composer (the engine owns the composers
 * and hands them to `loadDefinition`).
 */
export interface ComposerInfo {
  name: string;
  /** The result format it writes (must match the action's output format). */
  format: "list" | "html" | "text";
  /** The frameworks it can write with (the definition picks one). */
  frameworks: readonly string[];
  /** For "list": the section keys it fills. */
  sections?: readonly string[];
}

const identifier = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, "must start with a letter and hold only letters, digits and _");
/** Long text may be written as an array of lines (JSON has no multi-line strings). */
const multiline = z
  .union([z.string().min(1), z.array(z.string()).min(1)])
  .transform((v) => (Array.isArray(v) ? v.join("\n") : v));

const optionSchema = z.strictObject({ label: z.string().min(1), value: z.string().min(1) });

const comparisonSchema = z.strictObject({
  ref: z.string().min(1),
  op: z.enum(CONDITION_OPS),
  value: z.json().optional(),
});
/** A condition (see conditions.ts): a comparison, or all / any / not of conditions. */
export const conditionSchema: z.ZodType<Condition> = z.lazy(() =>
  z.union([
    comparisonSchema,
    z.strictObject({ all: z.array(conditionSchema) }),
    z.strictObject({ any: z.array(conditionSchema) }),
    z.strictObject({ not: conditionSchema }),
  ]),
) as z.ZodType<Condition>;

const ruleSchema = z.strictObject({
  /** Must rules block completion; Should rules only warn (returned in the result's meta). */
  strength: z.enum(["Must", "Should"]),
  check: z.enum(["minLength", "maxLength", "minItems", "maxItems", "min", "max", "pattern", "format"]),
  /** A number, a pattern, a format name, or (min/max of a date) `YYYY-MM-DD`. */
  value: z.union([z.number(), z.string()]),
  message: z.string().min(1),
});

const promptSchema = z.strictObject({
  system: multiline,
  /** `{{values.x}}`, `{{profile.x}}`, `{{steps.<step>.values.x}}`, `{{steps.<step>.result.<section>}}`. */
  template: multiline,
  maxOutputTokens: z.number().int().positive().optional(),
  temperature: z.number().min(0).max(2).optional(),
});

/** How the offline engine writes a result when no AI provider is configured. */
const offlineSchema = z.strictObject({
  composer: z.string().min(1),
  framework: z.string().min(1),
  params: z.record(z.string(), z.json()).default({}),
});

/** An inline text generation (an InlineTextGenerator input, or a command of that action). */
const inlineGeneratorSchema = z.strictObject({
  /** Templates may also use `{{params.<key>}}`, e.g. `{{params.text}}` for the selected text. */
  prompt: promptSchema,
  offline: offlineSchema,
  /** Characters kept of the generated text (trimmed at a word boundary). */
  maxLength: z.number().int().positive().optional(),
  /** Credits per generation; a command defaults to its action's credits, an input's generator to 1. */
  credits: z.number().int().min(0).optional(),
});

const commandSchema = inlineGeneratorSchema.extend({ name: identifier, label: z.string().min(1) });

const dateOrNumber = z.union([z.number(), z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD")]);

const inputSchema = z.strictObject({
  name: identifier,
  kind: z.enum(INPUT_KINDS),
  label: z.string().min(1),
  placeholder: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().default(false),
  /** select / radioSelect: the choices; autoComplete: suggestions; font: families. */
  options: z.array(optionSchema).min(1).optional(),
  /** A literal default, used when `defaultFrom` gives nothing. */
  default: z.json().optional(),
  /**
   * Where the value is prefilled from when the step opens: `profile.<name|description|audience|
   * keywords|websiteUrl>`, `steps.<step>.values.<input>`, `steps.<step>.result.<section>` (or
   * `…[0]` for its first item) or `steps.<step>.result.content`.
   */
  defaultFrom: z.string().optional(),
  maxLength: z.number().int().positive().optional(),
  maxItems: z.number().int().positive().optional(),
  /** number / slider bounds, or datePicker / dateRangePicker bounds as `YYYY-MM-DD`. */
  min: dateOrNumber.optional(),
  max: dateOrNumber.optional(),
  /** number / slider increment. */
  step: z.number().positive().optional(),
  format: z.enum(FORMAT_CHECKS).optional(),
  /** craftPicker / inlineCraftPicker: which crafts; thirdPartyObjectPicker: which objects. */
  source: z
    .union([
      z.strictObject({ workflowNames: z.array(z.string().min(1)).min(1) }),
      z.strictObject({ provider: z.string().min(1), objectType: z.string().min(1) }),
    ])
    .optional(),
  /** InlineTextGenerator input: how `generateInlineText` writes its value. */
  generator: inlineGeneratorSchema.optional(),
  /** When false the input is hidden: not validated, not saved, not in prompts. */
  showWhen: conditionSchema.optional(),
  rules: z.array(ruleSchema).default([]),
});

const sectionSchema = z.strictObject({
  key: identifier,
  heading: z.string().min(1),
  minItems: z.number().int().min(0).default(1),
  /** A platform limit (e.g. a Google headline: 30): every item is fitted to it at a word boundary. */
  maxChars: z.number().int().positive().optional(),
});

const outputSchema = z.discriminatedUnion("format", [
  z.strictObject({
    /** A list in sections, written as `## <heading>` lines followed by `- item` lines. */
    format: z.literal("list"),
    sections: z.array(sectionSchema).min(1),
  }),
  z.strictObject({ format: z.literal("html") }),
  z.strictObject({ format: z.literal("text"), maxChars: z.number().int().positive().optional() }),
  z.strictObject({
    /** A FunctionCaller's JSON `data` with a readable `content`. */
    format: z.literal("data"),
    /** Lists taken from `data.<key>` (strings, or objects by their first text field). */
    sections: z.array(sectionSchema.extend({ minItems: z.number().int().min(0).default(0) })).optional(),
  }),
]);

const actionBase = {
  label: z.string().min(1),
  resultMode: z.enum(RESULT_MODES),
  resultViewTrigger: z.enum(RESULT_VIEW_TRIGGERS),
  /** Per step (all items of an IteratorStep): results kept before ReachedMaxResults (AppendResults). */
  maxResults: z.number().int().positive().optional(),
};

const actionSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    ...actionBase,
    kind: z.enum(TEXT_ACTION_KINDS),
    /** Credits debited per run. */
    credits: z.number().int().min(0).default(1),
    prompt: promptSchema,
    output: outputSchema,
    offline: offlineSchema,
  }),
  z.strictObject({
    ...actionBase,
    kind: z.literal("InlineTextGenerator"),
    /** Credits debited per generateInlineText call; completing the step only saves its values. */
    credits: z.number().int().min(0).default(1),
    commands: z.array(commandSchema).min(1),
  }),
  z.strictObject({
    ...actionBase,
    kind: z.literal("FunctionCaller"),
    credits: z.number().int().min(0).default(0),
    function: z.enum(FUNCTION_NAMES),
    /** Each arg a template, e.g. `{ "url": "{{values.websiteUrl}}" }`. */
    args: z.record(identifier, z.string()).default({}),
    output: outputSchema.default({ format: "data" }),
  }),
  z.strictObject({
    ...actionBase,
    kind: z.enum(MEDIA_ACTION_KINDS),
    /** 0: the media service prices the image or the spoken minutes itself (debit before, refund on failure). */
    credits: z.number().int().min(0).default(0),
    params: z.record(z.string(), z.json()).default({}),
  }),
  z.strictObject({
    ...actionBase,
    kind: z.enum(DESIGN_ACTION_KINDS),
    /** 0: saving a design is no generation; images generated inside the designer are priced by media. */
    credits: z.number().int().min(0).default(0),
    params: z.record(z.string(), z.json()).default({}),
  }),
  z.strictObject({
    ...actionBase,
    kind: z.enum(BROWSER_ACTION_KINDS),
    credits: z.number().int().min(0).default(0),
    /** Each result one pick or upload (`data.asset`). */
    output: outputSchema.optional(),
    params: z.record(z.string(), z.json()).default({}),
  }),
]);

const stepSchema = z.strictObject({
  name: identifier,
  title: z.string().min(1),
  description: z.string().optional(),
  kind: z.enum(STEP_KINDS),
  inputs: z.array(inputSchema).default([]),
  action: actionSchema.optional(),
  viewer: z.enum(VIEWER_KINDS),
  /** A view step shows the results of an earlier step (e.g. the final draft). */
  resultsFrom: identifier.optional(),
  /** Evaluated when the step opens: when true it completes as `skipped`. */
  skipWhen: conditionSchema.optional(),
  /** IteratorStep: the list its action runs over, once per item. */
  iterator: z
    .strictObject({
      over: z.string().min(1),
      maxItems: z.number().int().positive().max(50).default(10),
    })
    .optional(),
});

const shapeSchema = z.strictObject({
  name: identifier,
  version: z.number().int().positive(),
  title: z.string().min(1),
  description: z.string().min(1),
  category: z.string().min(1),
  /** Badged as new in the headers (and newToolsList when also standalone). */
  new: z.boolean().default(false),
  /** Usable on its own, without a project: a tool (header `standalone`, toolsList). */
  standalone: z.boolean().default(false),
  /** Can be crafted but is never listed (test fixtures). */
  hidden: z.boolean().default(false),
  steps: z.array(stepSchema).min(1),
});

export type WorkflowDefinition = z.output<typeof shapeSchema>;
export type StepDefinition = WorkflowDefinition["steps"][number];
export type InputDefinition = StepDefinition["inputs"][number];
export type ActionDefinition = NonNullable<StepDefinition["action"]>;
export type TextActionDefinition = Extract<ActionDefinition, { kind: "TextGenerator" | "promptWriterAction" }>;
export type InlineActionDefinition = Extract<ActionDefinition, { kind: "InlineTextGenerator" }>;
export type FunctionActionDefinition = Extract<ActionDefinition, { kind: "FunctionCaller" }>;
export type InlineGenerator = z.output<typeof inlineGeneratorSchema>;
export type OfflineSpec = z.output<typeof offlineSchema>;
export type PromptSpec = z.output<typeof promptSchema>;
export type OutputSpec = z.output<typeof outputSchema>;
export type InputRule = InputDefinition["rules"][number];

/** A step whose action the media service runs (ImageAppender, AudioGenerator): it completes when it opens. */
export function isMediaStep(step: StepDefinition): boolean {
  return isMediaActionKind(step.action?.kind);
}

export function isTextAction(action: ActionDefinition | undefined): action is TextActionDefinition {
  return action?.kind === "TextGenerator" || action?.kind === "promptWriterAction";
}

/** A step whose picks and uploads the browser saves (TemplateDesigner, EmailAttachmentUploader): it completes when it opens. */
export function isBrowserStep(step: StepDefinition): boolean {
  return isBrowserActionKind(step.action?.kind);
}

/** A VisualDesigner step: it waits for the user's design, and completing it stores the design. */
export function isDesignStep(step: StepDefinition): boolean {
  return isDesignActionKind(step.action?.kind);
}

const SELECT_KINDS: readonly string[] = ["select", "radioSelect"];
export const PLACEHOLDER = /\{\{\s*([^}]+?)\s*\}\}/g;

const NUMBER_INPUTS: readonly string[] = ["number", "slider"];
const DATE_INPUTS: readonly string[] = ["datePicker", "dateRangePicker"];
const CRAFT_PICKERS: readonly string[] = ["craftPicker", "inlineCraftPicker"];

type Issue = (path: (string | number)[], message: string) => void;

/** The offline composer must exist, write with the framework and write the output's format. */
function checkComposer(
  composers: Readonly<Record<string, ComposerInfo>> | undefined,
  offline: OfflineSpec,
  formats: readonly string[],
  sections: { key: string }[] | undefined,
  at: (string | number)[],
  issue: Issue,
): void {
  if (!composers) return;
  const composer = composers[offline.composer];
  if (!composer) {
    issue([...at, "offline", "composer"], `unknown composer (known: ${Object.keys(composers).join(", ")})`);
    return;
  }
  if (!composer.frameworks.includes(offline.framework)) {
    issue([...at, "offline", "framework"], `${composer.name} writes with ${composer.frameworks.join(" or ")}`);
  }
  if (!formats.includes(composer.format)) {
    issue([...at, "output", "format"], `composer ${composer.name} writes ${composer.format}`);
  } else if (composer.format === "list" && composer.sections && sections) {
    sections.forEach((section, i) => {
      if (!composer.sections!.includes(section.key)) {
        issue(
          [...at, "output", "sections", i, "key"],
          `composer ${composer.name} fills ${composer.sections!.join(", ")}`,
        );
      }
    });
  }
}

/** Every `{{reference}}` of a prompt must resolve in its place. */
function checkPrompt(
  prompt: PromptSpec,
  earlier: StepDefinition[],
  step: StepDefinition,
  place: ReferencePlace,
  at: (string | number)[],
  issue: Issue,
): void {
  for (const [field, text] of [
    ["system", prompt.system],
    ["template", prompt.template],
  ] as const) {
    for (const match of text.matchAll(PLACEHOLDER)) {
      const problem = referenceProblem(match[1]!, earlier, step, place);
      if (problem) issue([...at, "prompt", field], `{{${match[1]}}}: ${problem}`);
    }
  }
}

function checkInputExtras(input: InputDefinition, at: (string | number)[], issue: Issue): void {
  const bounded = NUMBER_INPUTS.includes(input.kind) || DATE_INPUTS.includes(input.kind);
  for (const field of ["min", "max"] as const) {
    const bound = input[field];
    if (bound === undefined) continue;
    if (!bounded) issue([...at, field], `only applies to number, slider, datePicker and dateRangePicker inputs`);
    else if (NUMBER_INPUTS.includes(input.kind) !== (typeof bound === "number")) {
      issue([...at, field], NUMBER_INPUTS.includes(input.kind) ? "must be a number" : "must be a date YYYY-MM-DD");
    }
  }
  if (
    input.min !== undefined &&
    input.max !== undefined &&
    typeof input.min === typeof input.max &&
    input.min > input.max
  ) {
    issue([...at, "max"], "must not be below min");
  }
  if (input.step !== undefined && !NUMBER_INPUTS.includes(input.kind)) {
    issue([...at, "step"], "only applies to number and slider inputs");
  }
  if (input.kind === "slider" && (typeof input.min !== "number" || typeof input.max !== "number")) {
    issue([...at, "kind"], "a slider needs a numeric min and max");
  }
  if (input.source !== undefined) {
    const wanted = CRAFT_PICKERS.includes(input.kind)
      ? "workflowNames"
      : input.kind === "thirdPartyObjectPicker"
        ? "provider"
        : null;
    if (!wanted) issue([...at, "source"], "only applies to craftPicker, inlineCraftPicker and thirdPartyObjectPicker");
    else if (!(wanted in input.source)) {
      issue([...at, "source"], wanted === "provider" ? "needs { provider, objectType }" : "needs { workflowNames }");
    }
  }
  if (input.kind === "thirdPartyObjectPicker" && !input.source) {
    issue([...at, "source"], "a thirdPartyObjectPicker needs { provider, objectType }");
  }
  if (input.generator !== undefined && input.kind !== "InlineTextGenerator") {
    issue([...at, "generator"], "only applies to InlineTextGenerator inputs");
  }
}

/** Checks that need the whole definition: unique names, references to earlier steps, known kinds. */
function crossCheck(
  def: WorkflowDefinition,
  ctx: z.RefinementCtx,
  composers: Readonly<Record<string, ComposerInfo>> | undefined,
): void {
  const steps = def.steps;
  const issue: Issue = (path, message) => ctx.addIssue({ code: "custom", path, message });
  const seenSteps = new Set<string>();

  steps.forEach((step, s) => {
    if (seenSteps.has(step.name)) issue(["steps", s, "name"], `duplicate step name "${step.name}"`);
    seenSteps.add(step.name);
    const earlier = steps.slice(0, s);

    if (step.kind === "IteratorStep") {
      if (!step.iterator) issue(["steps", s, "iterator"], "an IteratorStep needs iterator { over, maxItems }");
      if (!step.action || !(isTextAction(step.action) || step.action.kind === "FunctionCaller")) {
        issue(
          ["steps", s, "action"],
          "an IteratorStep needs a TextGenerator, promptWriterAction or FunctionCaller action",
        );
      }
    } else if (step.iterator) {
      issue(["steps", s, "iterator"], "only an IteratorStep has an iterator");
    }
    if (step.iterator) {
      const over = parseReference(step.iterator.over);
      const problem =
        over?.source === "result" || (over?.source === "values" && over.step !== null)
          ? referenceProblem(step.iterator.over, earlier, null)
          : "must be steps.<step>.result.<section> or steps.<step>.values.<input>";
      if (problem) issue(["steps", s, "iterator", "over"], problem);
      else if (over?.source === "result" && (over.part === "content" || over.first)) {
        issue(["steps", s, "iterator", "over"], "must name a list section, not content or one item");
      }
    }
    if (step.skipWhen) {
      for (const ref of conditionRefs(step.skipWhen)) {
        const problem = referenceProblem(ref, earlier, null);
        if (problem) issue(["steps", s, "skipWhen"], `${ref}: ${problem}`);
      }
    }

    const seenInputs = new Set<string>();
    step.inputs.forEach((input, i) => {
      const at = ["steps", s, "inputs", i];
      if (seenInputs.has(input.name)) issue([...at, "name"], `duplicate input name "${input.name}"`);
      seenInputs.add(input.name);
      if (SELECT_KINDS.includes(input.kind)) {
        if (!input.options) issue([...at, "options"], `a ${input.kind} input needs options`);
        const values = (input.options ?? []).map((option) => option.value);
        if (new Set(values).size !== values.length) issue([...at, "options"], "option values must be unique");
        if (typeof input.default === "string" && !values.includes(input.default)) {
          issue([...at, "default"], `"${input.default}" is not one of the options`);
        }
      }
      if (input.defaultFrom !== undefined) {
        const problem = referenceProblem(input.defaultFrom, earlier, null);
        if (problem) issue([...at, "defaultFrom"], problem);
      }
      if (input.showWhen) {
        for (const ref of conditionRefs(input.showWhen)) {
          const parsed = parseReference(ref);
          const problem =
            parsed?.source === "values" && parsed.step === null && parsed.input === input.name
              ? "an input cannot depend on itself"
              : referenceProblem(ref, earlier, step);
          if (problem) issue([...at, "showWhen"], `${ref}: ${problem}`);
        }
      }
      checkInputExtras(input, at, issue);
      if (input.generator) {
        checkPrompt(input.generator.prompt, earlier, step, { params: true }, [...at, "generator"], issue);
        checkComposer(composers, input.generator.offline, ["text", "html"], undefined, [...at, "generator"], issue);
      }
      input.rules.forEach((rule, r) => {
        if (rule.check === "pattern") {
          try {
            new RegExp(String(rule.value));
          } catch {
            issue([...at, "rules", r, "value"], "not a valid regular expression");
          }
        } else if (rule.check === "format") {
          if (!(FORMAT_CHECKS as readonly unknown[]).includes(rule.value)) {
            issue([...at, "rules", r, "value"], `must be one of ${FORMAT_CHECKS.join(", ")}`);
          }
        } else if ((rule.check === "min" || rule.check === "max") && DATE_INPUTS.includes(input.kind)) {
          if (typeof rule.value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(rule.value)) {
            issue([...at, "rules", r, "value"], `${rule.check} of a date needs YYYY-MM-DD`);
          }
        } else if (typeof rule.value !== "number") {
          issue([...at, "rules", r, "value"], `${rule.check} needs a number`);
        }
      });
    });

    if (step.action) {
      const action = step.action;
      const at = ["steps", s, "action"];
      const place: ReferencePlace = { item: step.kind === "IteratorStep" };
      if (action.maxResults !== undefined && action.resultMode !== "AppendResults") {
        issue([...at, "maxResults"], "only applies with resultMode AppendResults");
      }
      if (isTextAction(action)) {
        checkPrompt(action.prompt, earlier, step, place, at, issue);
        if (action.output.format === "data") issue([...at, "output", "format"], "data is written by a FunctionCaller");
        const sections = action.output.format === "list" ? action.output.sections : undefined;
        checkComposer(composers, action.offline, [action.output.format], sections, at, issue);
        if (action.kind === "promptWriterAction" && !sections?.some((section) => section.key === "prompts")) {
          issue([...at, "output"], 'a promptWriterAction writes a list with the section "prompts"');
        }
      } else if (action.kind === "InlineTextGenerator") {
        const names = new Set<string>();
        action.commands.forEach((command, c) => {
          if (names.has(command.name)) issue([...at, "commands", c, "name"], `duplicate command "${command.name}"`);
          names.add(command.name);
          checkPrompt(command.prompt, earlier, step, { params: true }, [...at, "commands", c], issue);
          checkComposer(composers, command.offline, ["text", "html"], undefined, [...at, "commands", c], issue);
        });
      } else if (action.kind === "FunctionCaller") {
        if (action.output.format !== "data") issue([...at, "output", "format"], "a FunctionCaller writes data");
        for (const [name, template] of Object.entries(action.args)) {
          for (const match of template.matchAll(PLACEHOLDER)) {
            const problem = referenceProblem(match[1]!, earlier, step, place);
            if (problem) issue([...at, "args", name], `{{${match[1]}}}: ${problem}`);
          }
        }
      }
    }
    if (step.resultsFrom !== undefined) {
      const source = earlier.find((candidate) => candidate.name === step.resultsFrom);
      if (!source) issue(["steps", s, "resultsFrom"], `"${step.resultsFrom}" is not an earlier step`);
      else if (!source.action) issue(["steps", s, "resultsFrom"], `step "${step.resultsFrom}" has no action`);
      if (step.action) issue(["steps", s, "resultsFrom"], "a step with an action shows its own results");
    }
    if (!step.action && step.inputs.length > 0 && s === steps.length - 1) {
      issue(["steps", s], "the last step has inputs but no action to complete it with");
    }
  });
}

/**
 * The definition's schema with every check; with `composers`, each `offline` must also name one
 * of them that writes with its framework and its output's format.
 */
export function workflowDefinitionSchema(composers?: Readonly<Record<string, ComposerInfo>>) {
  return shapeSchema.superRefine((def, ctx) => crossCheck(def, ctx, composers));
}

/** Thrown when a definition does not load; the message names the workflow and each bad field. */
export class DefinitionError extends Error {
  override name = "DefinitionError";
}

/**
 * Validates raw definition data (with the engine's offline composers when given).
 * @throws DefinitionError e.g. `BlogWriter v1: steps[1] "outline" → inputs[0] "title" → defaultFrom: …`
 */
export function loadDefinition(
  raw: unknown,
  options: { composers?: Readonly<Record<string, ComposerInfo>> } = {},
): WorkflowDefinition {
  const parsed = workflowDefinitionSchema(options.composers).safeParse(raw);
  if (parsed.success) return parsed.data;
  const record = (raw ?? {}) as { name?: unknown; version?: unknown };
  const label = `${typeof record.name === "string" ? record.name : "(unnamed workflow)"} v${String(record.version ?? "?")}`;
  const problems = parsed.error.issues.map((issue) => `  ${describePath(raw, issue.path)}: ${issue.message}`);
  throw new DefinitionError(`Invalid workflow definition ${label}:\n${problems.join("\n")}`);
}

/** `["steps", 1, "inputs", 0, "kind"]` → `steps[1] "outline" → inputs[0] "title" → kind`. */
export function describePath(raw: unknown, path: PropertyKey[]): string {
  if (path.length === 0) return "(definition)";
  const parts: string[] = [];
  let node: unknown = raw;
  for (const key of path) {
    if (typeof key === "number") {
      node = Array.isArray(node) ? node[key] : undefined;
      const name = (node as { name?: unknown } | undefined)?.name;
      parts[parts.length - 1] = `${parts[parts.length - 1]}[${key}]${typeof name === "string" ? ` "${name}"` : ""}`;
    } else {
      node = node && typeof node === "object" ? (node as Record<PropertyKey, unknown>)[key] : undefined;
      parts.push(String(key));
    }
  }
  return parts.join(" → ");
}
