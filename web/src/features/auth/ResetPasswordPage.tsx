import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Result } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useSearchParams } from "react-router-dom";
import { isApiError } from "../../api/errors";
import { useAuthActions } from "../../api/hooks/session";
import { LinkButton } from "../../shared/LinkButton";
import { notify } from "../../shared/notify";
import { AuthCard, applyFieldErrors } from "./AuthCard";
import { AuthField } from "./AuthField";
import { PASSWORD_MIN, type ResetPasswordValues, resetPasswordSchema } from "./schemas";

/** /reset-password?token=…: chooses a new password. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token")?.trim() ?? "";
  const { resetPassword } = useAuthActions();
  const [done, setDone] = useState(false);
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { password: "", confirm: "" },
  });

  const onSubmit = handleSubmit(async ({ password }) => {
    try {
      await resetPassword(token, password);
      setDone(true);
    } catch (error) {
      if (isApiError(error) && applyFieldErrors(error.fields, setError, ["password"] as const)) return;
      notify.error(error, "Could not reset the password");
    }
  });

  if (!token) {
    return (
      <div className="crafter-auth">
        <Result
          className="crafter-auth__card"
          status="error"
          title="This link is incomplete"
          subTitle="The reset link is missing its token. Ask for a new one."
          extra={
            <LinkButton to="/forgot-password" type="primary">
              Get a new link
            </LinkButton>
          }
        />
      </div>
    );
  }

  if (done) {
    return (
      <div className="crafter-auth">
        <Result
          className="crafter-auth__card"
          status="success"
          title="Your password is changed"
          subTitle="Sign in with your new password."
          data-testid="reset-success"
          extra={
            <LinkButton to="/signin" type="primary">
              Sign in
            </LinkButton>
          }
        />
      </div>
    );
  }

  return (
    <AuthCard title="Choose a new password">
      <form onSubmit={onSubmit} noValidate aria-label="Reset password">
        <AuthField
          control={control}
          name="password"
          id="reset-password"
          label="New password"
          error={errors.password}
          required
          extra={`At least ${PASSWORD_MIN} characters.`}
          kind="password"
          autoComplete="new-password"
          autoFocus
        />
        <AuthField
          control={control}
          name="confirm"
          id="reset-confirm"
          label="Repeat the new password"
          error={errors.confirm}
          required
          kind="password"
          autoComplete="new-password"
        />
        <Button type="primary" htmlType="submit" size="large" block loading={isSubmitting} data-testid="reset-submit">
          Change password
        </Button>
      </form>
    </AuthCard>
  );
}
