import type { SmartValueToken } from "@crafter/email-language";
import { smartValueLabel } from "@crafter/email-language";
import { zodResolver } from "@hookform/resolvers/zod";
import { Form, Input, Modal, Typography } from "antd";
import { useEffect } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { FormField } from "../../../shared/FormField";

const schema = z.object({ text: z.string().max(500, "At most 500 characters.") });

/**
 * The spec's detach-smart-value modal: one smart value becomes plain text (its fallback by default),
 * the same for every recipient.
 */
export function DetachSmartValueModal({
  token,
  onCancel,
  onDetach,
}: {
  token: SmartValueToken | null;
  onCancel: () => void;
  onDetach: (text: string) => void;
}) {
  const { control, handleSubmit, reset, formState } = useForm<{ text: string }>({
    resolver: zodResolver(schema),
    defaultValues: { text: "" },
  });
  useEffect(() => {
    reset({ text: token?.fallback ?? "" });
  }, [token, reset]);
  const submit = handleSubmit((values) => onDetach(values.text));
  return (
    <Modal
      open={token !== null}
      title="Detach smart value"
      okText="Detach"
      onOk={() => void submit()}
      onCancel={onCancel}
      destroyOnHidden
      data-testid="detach-smart-value-modal"
    >
      <Typography.Paragraph>
        {token ? smartValueLabel(token.name) : ""} will no longer change per recipient: everyone reads the text below.
      </Typography.Paragraph>
      <Form layout="vertical" component="form" onSubmitCapture={submit}>
        <FormField id="detach-text" label="Plain text" error={formState.errors.text}>
          <Controller
            name="text"
            control={control}
            render={({ field }) => <Input id="detach-text" {...field} data-testid="detach-text" autoFocus />}
          />
        </FormField>
      </Form>
    </Modal>
  );
}
