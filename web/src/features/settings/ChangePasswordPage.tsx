import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Card, Form, Input, Typography } from "antd";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { api } from "../../api/api";
import { useLinkedIdentities } from "../../api/auth";
import { isApiError } from "../../api/errors";
import { FormField } from "../../shared/FormField";
import { countLabel } from "../../shared/format";
import { notify } from "../../shared/notify";
import { applyFieldErrors } from "../auth/AuthCard";
import { newPasswordField } from "../auth/schemas";
import { SettingsPageFrame } from "./SettingsPageFrame";
import { SignInMethodsCard } from "./SignInMethodsCard";
import { settingsPaths } from "./settings-api";

const schema = z
  .object({
    currentPassword: z.string().min(1, "Enter your current password"),
    newPassword: newPasswordField,
    confirm: z.string(),
  })
  .refine((values) => values.newPassword === values.confirm, { path: ["confirm"], message: "The passwords differ" });
type Values = z.infer<typeof schema>;

const FIELDS = [
  { name: "currentPassword", id: "password-current", label: "Current password", autoComplete: "current-password" },
  { name: "newPassword", id: "password-new", label: "New password", autoComplete: "new-password" },
  { name: "confirm", id: "password-confirm", label: "Repeat the new password", autoComplete: "new-password" },
] as const;

/**
 * /app/settings/change-password, the account's sign-in settings: its sign-in methods (password,
 * linked Google) and the password change, which checks the current password and signs every other
 * device out. An account without a password (signed up with Google) sets one through the emailed link.
 */
export default function ChangePasswordPage() {
  const { data: methods } = useLinkedIdentities();
  const [ended, setEnded] = useState<number | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { currentPassword: "", newPassword: "", confirm: "" },
  });

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      const result = await api.post<{ endedSessions: number }>(settingsPaths.password, {
        currentPassword,
        newPassword,
      });
      setEnded(result.endedSessions);
      reset();
    } catch (failure) {
      if (
        isApiError(failure) &&
        applyFieldErrors(failure.fields, setError, ["currentPassword", "newPassword"] as const)
      )
        return;
      notify.error(failure, "Could not change your password");
    }
  });

  return (
    <SettingsPageFrame title="Password and sign-in">
      <SignInMethodsCard />
      {ended !== null && (
        <Alert
          type="success"
          showIcon
          data-testid="password-changed"
          title="Your password is changed"
          description={
            ended === 0
              ? "No other device was signed in."
              : `${countLabel(ended, "other device was", "other devices were")} signed out.`
          }
        />
      )}
      <Card title="Change password">
        {methods && !methods.hasPassword ? (
          <Typography.Paragraph type="secondary" style={{ margin: 0 }} data-testid="password-none">
            This account has no password to change yet. Use “Email me a link to set a password” above.
          </Typography.Paragraph>
        ) : (
          <Form layout="vertical" component={false}>
            <form onSubmit={onSubmit} noValidate aria-label="Change password">
              {FIELDS.map((field) => (
                <FormField key={field.name} id={field.id} label={field.label} error={errors[field.name]} required>
                  <Controller
                    name={field.name}
                    control={control}
                    render={({ field: props }) => (
                      <Input.Password
                        {...props}
                        id={field.id}
                        data-testid={field.id}
                        autoComplete={field.autoComplete}
                        aria-invalid={!!errors[field.name]}
                      />
                    )}
                  />
                </FormField>
              ))}
              <Button type="primary" htmlType="submit" loading={isSubmitting} data-testid="password-submit">
                Change password
              </Button>
            </form>
          </Form>
        )}
      </Card>
    </SettingsPageFrame>
  );
}
