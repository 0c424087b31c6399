import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Result, Typography } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link } from "react-router-dom";
import { isApiError } from "../../api/errors";
import { useAuthActions } from "../../api/hooks/session";
import { LinkButton } from "../../shared/LinkButton";
import { notify } from "../../shared/notify";
import { AuthCard, applyFieldErrors } from "./AuthCard";
import { AuthField } from "./AuthField";
import { type ForgotPasswordValues, forgotPasswordSchema } from "./schemas";

/** /forgot-password: asks for a reset link (the answer is the same for unknown emails). */
export default function ForgotPasswordPage() {
  const { forgotPassword } = useAuthActions();
  const [sent, setSent] = useState<string | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ForgotPasswordValues>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: "" } });

  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      const result = await forgotPassword(email.trim());
      setSent(result?.message || "If an account exists for this email, we sent a link to reset the password.");
    } catch (error) {
      if (isApiError(error) && applyFieldErrors(error.fields, setError, ["email"] as const)) return;
      notify.error(error, "Could not send the link");
    }
  });

  if (sent) {
    return (
      <div className="crafter-auth">
        <Result
          className="crafter-auth__card"
          status="success"
          title="Check your email"
          subTitle={sent}
          data-testid="forgot-success"
          extra={
            <LinkButton to="/signin" type="primary">
              Back to sign in
            </LinkButton>
          }
        />
      </div>
    );
  }

  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter your email and we will send you a link to choose a new one."
      footer={
        <Typography.Text type="secondary">
          Remembered it? <Link to="/signin">Sign in</Link>
        </Typography.Text>
      }
    >
      <form onSubmit={onSubmit} noValidate aria-label="Forgot password">
        <AuthField
          control={control}
          name="email"
          id="forgot-email"
          label="Email"
          error={errors.email}
          required
          kind="email"
          autoComplete="email"
          autoFocus
        />
        <Button type="primary" htmlType="submit" size="large" block loading={isSubmitting} data-testid="forgot-submit">
          Send reset link
        </Button>
      </form>
    </AuthCard>
  );
}
