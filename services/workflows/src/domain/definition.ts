import { z } from "zod";
import { COMPOSERS } from "./offline/composers";
import { referenceProblem } from "./references";

/**
 * Workflow definitions are data (JSON under src/definitions), versioned by `version`, and
 * validated here when loaded. The kinds are the spec's (section 3); the engine runs the subset
 * in SUPPORTED, and a definition using anything else fails to load with the field named.
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

export const ACTION_KINDS = [
  "FunctionCaller",
  "TextGenerator",
  "ImageAppender",
  "AudioGenerator",
  "promptWriterAction",
  "InlineTextGenerator",
  "VisualDesigner",
  "TemplateDesigner",
  "EmailAttachmentUploader",
] as const;

export const STEP_KINDS = ["FormStep", "IteratorStep"] as const;
export const RESULT_MODES = ["ReplaceResults", "AppendResults"] as const;
export const RESULT_VIEW_TRIGGERS = ["AfterOpen", "Manual"] as const;
export const FORMAT_CHECKS = ["Url", "DomainName", "Email"] as const;

/** What this version of the engine can run; the rest of the spec's kinds load as errors. */
export const SUPPORTED = {
  stepKinds: ["FormStep"] as readonly string[],
  actionKinds: ["TextGenerator"] as readonly string[],
};

export type InputKind = (typeof INPUT_KINDS)[number];
export type ViewerKind = (typeof VIEWER_KINDS)[number];

const identifier = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]*$/, "must start with a letter and hold only letters, digits and _");
/** Long text may be written as an array of lines (JSON has no multi-line strings). */
const multiline = z
  .union([z.string().min(1), z.array(z.string()).min(1)])
  .transform((v) => (Array.isArray(v) ? v.join("\n") : v));

const optionSchema = z.strictObject({ label: z.string().min(1), value: z.string().min(1) });

const ruleSchema = z.strictObject({
  /** Must rules block completion; Should rules only warn (returned in the result's meta). */
  strength: z.enum(["Must", "Should"]),
  check: z.enum(["minLength", "maxLength", "minItems", "maxItems", "pattern", "format"]),
  value: z.union([z.number(), z.string()]),
  message: z.string().min(1),
});

const inputSchema = z.strictObject({
  name: identifier,
  kind: z.enum(INPUT_KINDS),
  label: z.string().min(1),
  placeholder: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().default(false),
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
  format: z.enum(FORMAT_CHECKS).optional(),
  rules: z.array(ruleSchema).default([]),
});

const outputSchema = z.discriminatedUnion("format", [
  z.strictObject({
    /** A list in sections, written as `## <heading>` lines followed by `- item` lines. */
    format: z.literal("list"),
    sections: z
      .array(
        z.strictObject({
          key: identifier,
          heading: z.string().min(1),
          minItems: z.number().int().min(0).default(1),
        }),
      )
      .min(1),
  }),
  z.strictObject({ format: z.literal("html") }),
  z.strictObject({ format: z.literal("text") }),
]);

const actionSchema = z.strictObject({
  kind: z.enum(ACTION_KINDS),
  label: z.string().min(1),
  resultMode: z.enum(RESULT_MODES),
  resultViewTrigger: z.enum(RESULT_VIEW_TRIGGERS),
  /** With AppendResults: results kept before ReachedMaxResults. */
  maxResults: z.number().int().positive().optional(),
  prompt: z.strictObject({
    system: multiline,
    /** `{{values.x}}`, `{{profile.x}}`, `{{steps.<step>.values.x}}`, `{{steps.<step>.result.<section>}}`. */
    template: multiline,
    maxOutputTokens: z.number().int().positive().optional(),
    temperature: z.number().min(0).max(2).optional(),
  }),
  output: outputSchema,
  /** How the offline engine writes this result when no AI provider is configured. */
  offline: z.strictObject({
    composer: z.string().min(1),
    framework: z.string().min(1),
    params: z.record(z.string(), z.json()).default({}),
  }),
});

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
});

const shapeSchema = z.strictObject({
  name: identifier,
  version: z.number().int().positive(),
  title: z.string().min(1),
  description: z.string().min(1),
  category: z.string().min(1),
  steps: z.array(stepSchema).min(1),
});

export type WorkflowDefinition = z.output<typeof shapeSchema>;
export type StepDefinition = WorkflowDefinition["steps"][number];
export type InputDefinition = StepDefinition["inputs"][number];
export type ActionDefinition = NonNullable<StepDefinition["action"]>;
export type OutputSpec = ActionDefinition["output"];
export type InputRule = InputDefinition["rules"][number];

const SELECT_KINDS: readonly string[] = ["select", "radioSelect"];
export const PLACEHOLDER = /\{\{\s*([^}]+?)\s*\}\}/g;

/** Checks that need the whole definition: unique names, references to earlier steps, known kinds. */
function crossCheck(def: WorkflowDefinition, ctx: z.RefinementCtx): void {
  const steps = def.steps;
  const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
  const seenSteps = new Set<string>();

  steps.forEach((step, s) => {
    if (seenSteps.has(step.name)) issue(["steps", s, "name"], `duplicate step name "${step.name}"`);
    seenSteps.add(step.name);
    if (!SUPPORTED.stepKinds.includes(step.kind)) {
      issue(["steps", s, "kind"], `${step.kind} is not supported yet (supported: ${SUPPORTED.stepKinds.join(", ")})`);
    }
    const earlier = steps.slice(0, s);
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
        } else if (typeof rule.value !== "number") {
          issue([...at, "rules", r, "value"], `${rule.check} needs a number`);
        }
      });
    });

    if (step.action) {
      const action = step.action;
      const at = ["steps", s, "action"];
      if (!SUPPORTED.actionKinds.includes(action.kind)) {
        issue([...at, "kind"], `${action.kind} is not supported yet (supported: ${SUPPORTED.actionKinds.join(", ")})`);
      }
      if (action.maxResults !== undefined && action.resultMode !== "AppendResults") {
        issue([...at, "maxResults"], "only applies with resultMode AppendResults");
      }
      for (const [field, text] of [
        ["system", action.prompt.system],
        ["template", action.prompt.template],
      ] as const) {
        for (const match of text.matchAll(PLACEHOLDER)) {
          const problem = referenceProblem(match[1]!, earlier, step);
          if (problem) issue([...at, "prompt", field], `{{${match[1]}}}: ${problem}`);
        }
      }
      const composer = COMPOSERS[action.offline.composer];
      if (!composer) {
        issue([...at, "offline", "composer"], `unknown composer (known: ${Object.keys(COMPOSERS).join(", ")})`);
      } else {
        if (!composer.frameworks.includes(action.offline.framework)) {
          issue([...at, "offline", "framework"], `${composer.name} writes with ${composer.frameworks.join(" or ")}`);
        }
        if (composer.format !== action.output.format) {
          issue([...at, "output", "format"], `composer ${composer.name} writes ${composer.format}`);
        } else if (action.output.format === "list" && composer.sections) {
          action.output.sections.forEach((section, i) => {
            if (!composer.sections!.includes(section.key)) {
              issue(
                [...at, "output", "sections", i, "key"],
                `composer ${composer.name} fills ${composer.sections!.join(", ")}`,
              );
            }
          });
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

export const workflowDefinitionSchema = shapeSchema.superRefine(crossCheck);

/** Thrown when a definition does not load; the message names the workflow and each bad field. */
export class DefinitionError extends Error {
  override name = "DefinitionError";
}

/**
 * Validates raw definition data.
 * @throws DefinitionError e.g. `BlogWriter v1: steps[1] "outline" → inputs[0] "title" → defaultFrom: …`
 */
export function loadDefinition(raw: unknown): WorkflowDefinition {
  const parsed = workflowDefinitionSchema.safeParse(raw);
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
