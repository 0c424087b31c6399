import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Typography } from "antd";
import { useForm } from "react-hook-form";
import { Link, useSearchParams } from "react-router-dom";
import { isApiError } from "../../api/errors";
import { useAuthActions, useSession } from "../../api/hooks/session";
import { safeCallbackUrl } from "../../routing/guard";
import { browserStorage, forgetReturnPath, withCallback } from "../../routing/return-path";
import { notify } from "../../shared/notify";
import { AuthCard, applyFieldErrors } from "./AuthCard";
import { AuthField } from "./AuthField";
import { ResendVerification } from "./ResendVerification";
import { type SignInValues, signInSchema } from "./schemas";

/**
 * /signin (accepts callbackUrl). A verified user is moved on by the guard (rule 3: the callbackUrl
 * or /app); an unverified one stays here and is told to check their email.
 */
export default function SignInPage() {
  const [params] = useSearchParams();
  const callbackUrl = safeCallbackUrl(params.get("callbackUrl"));
  const session = useSession();
  const { signIn, signOut } = useAuthActions();
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignInValues>({ resolver: zodResolver(signInSchema), defaultValues: { email: "", password: "" } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await signIn({ email: values.email.trim(), password: values.password });
      // The path kept through sign-up has served (the guard now follows this page's callbackUrl).
      forgetReturnPath(browserStorage());
    } catch (error) {
      if (isApiError(error) && applyFieldErrors(error.fields, setError, ["email", "password"] as const)) return;
      notify.error(error, "Sign in failed");
    }
  });

  const unverified = session.status === "unverified";

  return (
    <AuthCard
      title="Welcome back"
      subtitle={callbackUrl ? "Sign in to continue where you left off." : "Sign in to keep crafting."}
      footer={
        <Typography.Text type="secondary">
          New to Crafter? <Link to={withCallback("/signup", callbackUrl)}>Create an account</Link>
        </Typography.Text>
      }
    >
      {unverified && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          data-testid="signin-unverified"
          style={{ marginBottom: 16 }}
          title="Please verify your email"
          description={
            <>
              We sent a verification link to <strong>{session.user?.email}</strong>. Check your email, open the link,
              then sign in again.{" "}
              <Button type="link" size="small" onClick={() => void signOut()} style={{ padding: 0 }}>
                Use another account
              </Button>
              <div style={{ marginTop: 8 }}>
                <ResendVerification email={session.user?.email} />
              </div>
            </>
          }
        />
      )}
      <form onSubmit={onSubmit} noValidate aria-label="Sign in" data-testid="signin-form">
        <AuthField
          control={control}
          name="email"
          id="signin-email"
          label="Email"
          error={errors.email}
          required
          kind="email"
          autoComplete="email"
          autoFocus
        />
        <AuthField
          control={control}
          name="password"
          id="signin-password"
          label="Password"
          error={errors.password}
          required
          extra={<Link to="/forgot-password">Forgot password?</Link>}
          kind="password"
          autoComplete="current-password"
        />
        <Button type="primary" htmlType="submit" size="large" block loading={isSubmitting} data-testid="signin-submit">
          Sign in
        </Button>
      </form>
    </AuthCard>
  );
}
