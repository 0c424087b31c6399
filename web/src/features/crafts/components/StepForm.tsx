import { SaveOutlined, ThunderboltOutlined } from "@ant-design/icons";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Flex, Form, Typography } from "antd";
import { useMemo } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { isApiError } from "../../../api/errors";
import { useSaveCraft } from "../../../api/hooks/crafts";
import type { CraftStep, StepInput } from "../../../api/types";
import { FormField } from "../../../shared/FormField";
import { notify } from "../../../shared/notify";
import { useCraftErrorHandler } from "../craft-errors";
import { inputComponentFor } from "./inputs";
import { cleanValues, initialValues, labelOf, type StepValues, validateStep } from "./step-values";

/** The zod schema of a step, built from its input definitions (rules in step-values.ts). */
export function stepSchema(inputs: StepInput[]) {
  return z.record(z.string(), z.unknown()).superRefine((values, ctx) => {
    for (const [name, message] of Object.entries(validateStep(inputs, values))) {
      ctx.addIssue({ code: "custom", path: [name], message });
    }
  });
}

export interface StepFormProps {
  craftId: string;
  step: CraftStep;
  /** True while a step of this craft is being completed. */
  busy: boolean;
  /** Completes the step; resolves with the failure (if any) so field messages land on the form. */
  onComplete: (values: StepValues) => Promise<unknown>;
}

/** A FormStep's inputs, rendered by kind; Save keeps the values, the action completes the step. */
export function StepForm({ craftId, step, busy, onComplete }: StepFormProps) {
  const inputs = useMemo(() => step.inputs ?? [], [step.inputs]);
  const schema = useMemo(() => stepSchema(inputs), [inputs]);
  const { control, handleSubmit, getValues, setError } = useForm<StepValues>({
    resolver: zodResolver(schema),
    defaultValues: initialValues(step),
  });
  const save = useSaveCraft(craftId);
  const handleError = useCraftErrorHandler();

  const onSave = async () => {
    try {
      await save.trigger({ stepName: step.name, values: cleanValues(inputs, getValues()) });
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
    const failure = await onComplete(cleanValues(inputs, values));
    if (!isApiError(failure)) return;
    for (const [name, message] of Object.entries(failure.fields)) {
      if (inputs.some((input) => input.name === name)) setError(name, { type: "server", message });
    }
  });
  const actionLabel = step.action?.label || "Continue";

  return (
    <Form layout="vertical" component={false}>
      <form onSubmit={onSubmit} noValidate data-testid={`step-form-${step.name}`}>
        {inputs.length === 0 && (
          <Typography.Paragraph type="secondary">
            This step needs no input. {actionLabel} when you are ready.
          </Typography.Paragraph>
        )}
        {inputs.map((input) => {
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
  );
}
