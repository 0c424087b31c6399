import { SaveOutlined, ThunderboltOutlined } from "@ant-design/icons";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Flex, Form, Typography } from "antd";
import { useEffect, useMemo, useRef, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { api } from "../../../api/api";
import { isApiError } from "../../../api/errors";
import { generateInlineText, useSaveCraft } from "../../../api/hooks/crafts";
import { paths } from "../../../api/paths";
import type { CraftStep, StepInput } from "../../../api/types";
import { FormField } from "../../../shared/FormField";
import { notify } from "../../../shared/notify";
import { answerInput, MULTILINE_INPUT_KINDS, registerAnswerTarget, withAnswer } from "../../assistant/handoff";
import { useCraftErrorHandler } from "../craft-errors";
import { inputComponentFor, StepFormContext } from "./inputs";
import {
  type ConditionScope,
  cleanValues,
  conditionScope,
  initialValues,
  isVisible,
  labelOf,
  type StepValues,
  validateStep,
} from "./step-values";

/**
 * The zod schema of a step, built from its input definitions (rules in step-values.ts); inputs
 * hidden by their showWhen are not validated.
 */
export function stepSchema(inputs: StepInput[], scopeOf: (values: StepValues) => ConditionScope) {
  return z.record(z.string(), z.unknown()).superRefine((values, ctx) => {
    for (const [name, message] of Object.entries(validateStep(inputs, values, scopeOf(values)))) {
      ctx.addIssue({ code: "custom", path: [name], message });
    }
  });
}

export interface StepFormProps {
  craftId: string;
  step: CraftStep;
  /** The craft's steps and the profile: what showWhen conditions may read besides this form. */
  steps?: CraftStep[];
  profile?: Record<string, unknown> | null;
  /** True while a step of this craft is being completed. */
  busy: boolean;
  /** Completes the step; resolves with the failure (if any) so field messages land on the form. */
  onComplete: (values: StepValues) => Promise<unknown>;
  /**
   * A draft craft (craftId ""): stores it and answers its id. Save then stores the values and calls
   * `onStored`, so a craft exists only once the user saved, completed or generated something.
   */
  ensureCraft?: () => Promise<string>;
  onStored?: (craftId: string) => void;
}

/** A FormStep's inputs, rendered by kind; Save keeps the values, the action completes the step. */
export function StepForm({ craftId, step, steps, profile, busy, onComplete, ensureCraft, onStored }: StepFormProps) {
  const inputs = useMemo(() => step.inputs ?? [], [step.inputs]);
  const scopeOf = useMemo(
    () => (values: StepValues) => conditionScope(values, steps ?? [], profile ?? null),
    [steps, profile],
  );
  const schema = useMemo(() => stepSchema(inputs, scopeOf), [inputs, scopeOf]);
  const { control, handleSubmit, getValues, setError, setValue } = useForm<StepValues>({
    resolver: zodResolver(schema),
    defaultValues: initialValues(step),
  });
  // Live show/hide: re-render on every change so showWhen sees the values as typed.
  const live = useWatch({ control }) as StepValues;
  const scope = scopeOf({ ...getValues(), ...live });
  const resolveCraftId = useMemo(
    () => async () => (craftId || !ensureCraft ? craftId : await ensureCraft()),
    [craftId, ensureCraft],
  );
  const context = useMemo(
    () => ({
      craftId,
      resolveCraftId,
      stepName: step.name,
      getValues: () => cleanValues(inputs, getValues(), scopeOf(getValues())),
    }),
    [craftId, resolveCraftId, step.name, inputs, getValues, scopeOf],
  );
  const save = useSaveCraft(craftId);
  const handleError = useCraftErrorHandler();
  const [runningCommand, setRunningCommand] = useState<string | null>(null);
  // InlineTextGenerator commands (SmartEditor) rewrite the step's editor text in place.
  const commands = step.action?.kind === "InlineTextGenerator" ? (step.action.commands ?? []) : [];
  const editorInput =
    inputs.find((input) => input.kind === "InlineTextGenerator") ?? inputs.find((input) => input.kind === "text");
  const runCommand = async (name: string) => {
    setRunningCommand(name);
    try {
      // Commands work on the editor's text: it goes as `params.text` beside the step's values.
      const values = context.getValues();
      const params = editorInput ? { ...values, text: values[editorInput.name] ?? "" } : values;
      const { text } = await generateInlineText(await resolveCraftId(), step.name, name, params);
      if (editorInput) setValue(editorInput.name, text, { shouldDirty: true });
    } catch (error) {
      handleError(error, "Could not generate the text");
    } finally {
      setRunningCommand(null);
    }
  };

  // "Use in craft" (the assistant panel): an answer goes into the text input last focused, else the first.
  const focused = useRef<string | null>(null);
  const stepTitle = step.title || labelOf({ name: step.name, kind: "text" });
  useEffect(
    () =>
      registerAnswerTarget({
        craftId,
        stepTitle,
        insert: (answer) => {
          const input = answerInput(inputs, (candidate) => isVisible(candidate, scopeOf(getValues())), focused.current);
          if (!input) return null;
          const value = withAnswer(getValues(input.name), answer, MULTILINE_INPUT_KINDS.has(input.kind));
          setValue(input.name, value, { shouldDirty: true, shouldValidate: true });
          const field = document.getElementById(`field-${step.name}-${input.name}`);
          // After the assistant's drawer has closed, which would otherwise take the focus back.
          window.setTimeout(() => {
            field?.scrollIntoView?.({ block: "center" });
            field?.focus();
          }, 350);
          const limit = input.maxLength ?? input.generator?.maxLength;
          return { label: labelOf(input), overLimit: !!limit && value.length > limit };
        },
      }),
    [craftId, stepTitle, inputs, scopeOf, getValues, setValue, step.name],
  );

  const onSave = async () => {
    try {
      const body = { stepName: step.name, values: cleanValues(inputs, getValues(), scopeOf(getValues())) };
      if (craftId) await save.trigger(body);
      else {
        const id = await resolveCraftId();
        await api.put(paths.craft(id), body);
        onStored?.(id);
      }
      notify.success("Saved", "Your answers are kept; complete the step when you are ready.");
    } catch (error) {
      handleError(error, "Could not save");
      if (isApiError(error)) {
        for (const [name, message] of Object.entries(error.fields)) {
          if (inputs.some((input) => input.name === name)) setError(name, { type: "server", message });
        }
      }
    }
  };

  const onSubmit = handleSubmit(async (values) => {
    const failure = await onComplete(cleanValues(inputs, values, scopeOf(values)));
    if (!isApiError(failure)) return;
    for (const [name, message] of Object.entries(failure.fields)) {
      if (inputs.some((input) => input.name === name)) setError(name, { type: "server", message });
    }
  });
  const actionLabel = step.action?.label || "Continue";

  return (
    <StepFormContext.Provider value={context}>
      <Form layout="vertical" component={false}>
        <form
          onSubmit={onSubmit}
          noValidate
          data-testid={`step-form-${step.name}`}
          onFocus={(event) => {
            const prefix = `field-${step.name}-`;
            if (event.target.id.startsWith(prefix)) focused.current = event.target.id.slice(prefix.length);
          }}
        >
          {commands.length > 0 && (
            <Flex gap={8} wrap style={{ marginBottom: 16 }} role="toolbar" aria-label="Writing commands">
              {commands.map((command) => (
                <Button
                  key={command.name}
                  icon={<ThunderboltOutlined />}
                  loading={runningCommand === command.name}
                  disabled={busy || (runningCommand !== null && runningCommand !== command.name)}
                  onClick={() => void runCommand(command.name)}
                  data-testid={`command-${command.name}`}
                >
                  {command.label}
                </Button>
              ))}
            </Flex>
          )}
          {inputs.length === 0 && (
            <Typography.Paragraph type="secondary">
              This step needs no input. {actionLabel} when you are ready.
            </Typography.Paragraph>
          )}
          {inputs.map((input) => {
            if (!isVisible(input, scope)) return null;
            const Input = inputComponentFor(input.kind);
            const id = `field-${step.name}-${input.name}`;
            return (
              <Controller
                key={input.name}
                name={input.name}
                control={control}
                render={({ field, fieldState }) => (
                  <FormField
                    id={id}
                    label={labelOf(input)}
                    required={input.required}
                    error={fieldState.error}
                    extra={input.description}
                  >
                    <Input
                      input={input}
                      id={id}
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      disabled={busy}
                      invalid={!!fieldState.error}
                    />
                  </FormField>
                )}
              />
            );
          })}
          <Flex gap={8} wrap>
            <Button
              type="primary"
              htmlType="submit"
              icon={<ThunderboltOutlined />}
              loading={busy}
              data-testid="complete-step"
            >
              {actionLabel}
            </Button>
            <Button
              icon={<SaveOutlined />}
              onClick={() => void onSave()}
              loading={save.isMutating}
              disabled={busy}
              data-testid="save-step"
            >
              Save
            </Button>
          </Flex>
        </form>
      </Form>
    </StepFormContext.Provider>
  );
}
