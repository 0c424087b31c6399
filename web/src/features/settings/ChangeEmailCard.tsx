import { emailError } from "@crafter/validation";
import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Card, Form, Input } from "antd";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { api } from "../../api/api";
import { isApiError } from "../../api/errors";
import { FormField } from "../../shared/FormField";
import { notify } from "../../shared/notify";
import { applyFieldErrors } from "../auth/AuthCard";
import { settingsPaths } from "./settings-api";

const schema = z.object({
  newEmail: z.string().superRefine((value, ctx) => {
    const problem = emailError(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  currentPassword: z.string().min(1, "Enter your current password"),
});
type Values = z.infer<typeof schema>;

/**
 * Changing the email (issue 14): the new address and the current password; a link goes to the new
 * address and a notice to the current one, and the email changes when the link is opened.
 */
export function ChangeEmailCard({ email }: { email: string }) {
  const [sent, setSent] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { newEmail: "", currentPassword: "" } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const result = await api.post<{ newEmail: string; message: string }>(settingsPaths.email, {
        newEmail: values.newEmail.trim(),
        currentPassword: values.currentPassword,
      });
      setSent(result.message);
      reset({ newEmail: "", currentPassword: "" });
    } catch (failure) {
      if (isApiError(failure) && failure.code === "EMAIL_TAKEN") {
        setError("newEmail", { message: failure.message });
        return;
      }
      if (isApiError(failure) && applyFieldErrors(failure.fields, setError, ["newEmail", "currentPassword"] as const))
        return;
      notify.error(failure, "Could not change your email");
    }
  });

  return (
    <Card title="Email" data-testid="change-email">
      {sent && (
        <Alert type="success" showIcon message={sent} style={{ marginBottom: 16 }} data-testid="change-email-sent" />
      )}
      <Form layout="vertical" component={false}>
        <form onSubmit={onSubmit} noValidate aria-label="Change email">
          <FormField id="change-email-new" label="New email" error={errors.newEmail} extra={`Now: ${email}`} required>
            <Controller
              name="newEmail"
              control={control}
              render={({ field }) => (
                <Input
                  {...field}
                  id="change-email-new"
                  type="email"
                  autoComplete="email"
                  data-testid="change-email-new"
                />
              )}
            />
          </FormField>
          <FormField id="change-email-password" label="Current password" error={errors.currentPassword} required>
            <Controller
              name="currentPassword"
              control={control}
              render={({ field }) => (
                <Input.Password
                  {...field}
                  id="change-email-password"
                  autoComplete="current-password"
                  data-testid="change-email-password"
                />
              )}
            />
          </FormField>
          <Button htmlType="submit" loading={isSubmitting} data-testid="change-email-submit">
            Send the confirmation link
          </Button>
        </form>
      </Form>
    </Card>
  );
}
