import { MailOutlined } from "@ant-design/icons";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Result, Typography } from "antd";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useSearchParams } from "react-router-dom";
import { isApiError } from "../../api/errors";
import { useAuthActions } from "../../api/hooks/session";
import { safeCallbackUrl } from "../../routing/guard";
import { browserStorage, rememberReturnPath, withCallback } from "../../routing/return-path";
import { LinkButton } from "../../shared/LinkButton";
import { notify } from "../../shared/notify";
import { AuthCard, applyFieldErrors } from "./AuthCard";
import { AuthField } from "./AuthField";
import { GoogleSignIn, GoogleSignInError } from "./GoogleSignIn";
import { PASSWORD_MIN, type SignUpValues, signUpSchema } from "./schemas";

/**
 * /signup: on success, a "check your email" state (the answer is the same for known emails). Sign up
 * with Google skips the email check (Google verified the address) and lands in the app signed in.
 */
export default function SignUpPage() {
  const { signUp } = useAuthActions();
  // A referral link's code (`/signup?ref=<code>`): passed on with the sign-up, which records it.
  const [params] = useSearchParams();
  const ref = params.get("ref")?.trim().slice(0, 64) || undefined;
  // Where the visitor was going (an invitation link): kept through the verification link and sign-in.
  const callbackUrl = safeCallbackUrl(params.get("callbackUrl"));
  const [sentTo, setSentTo] = useState<{ email: string; message: string } | null>(null);
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignUpValues>({
    resolver: zodResolver(signUpSchema),
    defaultValues: { displayName: "", email: "", password: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const email = values.email.trim();
      const result = await signUp({
        email,
        password: values.password,
        displayName: values.displayName || undefined,
        ref,
      });
      rememberReturnPath(browserStorage(), callbackUrl);
      setSentTo({ email, message: result?.message ?? "" });
    } catch (error) {
      if (isApiError(error) && applyFieldErrors(error.fields, setError, ["displayName", "email", "password"] as const))
        return;
      notify.error(error, "Sign up failed");
    }
  });

  if (sentTo) {
    return (
      <div className="crafter-auth">
        <Result
          className="crafter-auth__card"
          icon={<MailOutlined />}
          status="success"
          title="Check your email"
          data-testid="signup-success"
          subTitle={
            <>
              {sentTo.message || "We sent you a verification link."} Open the link sent to{" "}
              <strong>{sentTo.email}</strong> to verify your account, then sign in.
            </>
          }
          extra={
            <LinkButton to={withCallback("/signin", callbackUrl)} type="primary" data-testid="signup-goto-signin">
              Go to sign in
            </LinkButton>
          }
        />
      </div>
    );
  }

  return (
    <AuthCard
      title="Create your account"
      subtitle="Start crafting blog posts, ads and emails for your business."
      footer={
        <Typography.Text type="secondary">
          Already have an account? <Link to={withCallback("/signin", callbackUrl)}>Sign in</Link>
        </Typography.Text>
      }
    >
      <GoogleSignInError code={params.get("error")} />
      <form onSubmit={onSubmit} noValidate aria-label="Sign up" data-testid="signup-form">
        <AuthField
          control={control}
          name="displayName"
          id="signup-name"
          label="Your name"
          error={errors.displayName}
          autoComplete="name"
          autoFocus
        />
        <AuthField
          control={control}
          name="email"
          id="signup-email"
          label="Email"
          error={errors.email}
          required
          kind="email"
          autoComplete="email"
        />
        <AuthField
          control={control}
          name="password"
          id="signup-password"
          label="Password"
          error={errors.password}
          required
          extra={`At least ${PASSWORD_MIN} characters.`}
          kind="password"
          autoComplete="new-password"
        />
        <Button type="primary" htmlType="submit" size="large" block loading={isSubmitting} data-testid="signup-submit">
          Create account
        </Button>
      </form>
      <GoogleSignIn intent="signup" callbackUrl={callbackUrl} referral={ref} />
    </AuthCard>
  );
}
