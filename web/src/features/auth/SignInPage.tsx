import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Spin, Typography } from "antd";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useSearchParams } from "react-router-dom";
import { api } from "../../api/api";
import { linkedIdentities } from "../../api/auth";
import { isApiError } from "../../api/errors";
import { useAuthActions, useSession } from "../../api/hooks/session";
import { safeCallbackUrl } from "../../routing/guard";
import { browserStorage, forgetReturnPath, withCallback } from "../../routing/return-path";
import { notify } from "../../shared/notify";
import { AuthCard, applyFieldErrors } from "./AuthCard";
import { AuthField } from "./AuthField";
import { GoogleSignIn, GoogleSignInError } from "./GoogleSignIn";
import { GOOGLE_LINK, GOOGLE_PARAM, GOOGLE_SIGNED_IN } from "./google-sign-in";
import { ResendVerification } from "./ResendVerification";
import { type SignInValues, signInSchema } from "./schemas";

/**
 * Back from Google signed in (`?google=signed_in`): the gateway set the session cookies, so the
 * dashboard takes the session (its expiry marker) and the guard moves on once /auth/check answers.
 * @returns true once taken (a session that then turns out missing shows as anonymous again).
 */
function useGoogleSession(landed: boolean): boolean {
  const [taken, setTaken] = useState(false);
  useEffect(() => {
    if (!landed) return;
    if (!api.hasSession()) {
      api.markSignedIn();
      api.startRefreshTimer();
    }
    setTaken(true);
  }, [landed]);
  return taken;
}

/**
 * /signin (accepts callbackUrl). A verified user is moved on by the guard (rule 3: the callbackUrl
 * or /app); an unverified one stays here and is told to check their email. Sign in with Google
 * comes back here: signed in (`?google=signed_in`), failed (`?error=<code>`), or to link Google to
 * an account with a password (`?google=link&email=…`: this sign-in links it).
 */
export default function SignInPage() {
  const [params] = useSearchParams();
  const callbackUrl = safeCallbackUrl(params.get("callbackUrl"));
  const outcome = params.get(GOOGLE_PARAM);
  const linkEmail = outcome === GOOGLE_LINK ? (params.get("email") ?? "").slice(0, 254) : "";
  const googleTaken = useGoogleSession(outcome === GOOGLE_SIGNED_IN);
  const session = useSession();
  const { signIn, signOut } = useAuthActions();
  const {
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignInValues>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: linkEmail, password: "" },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await signIn({ email: values.email.trim(), password: values.password });
      // The path kept through sign-up has served (the guard now follows this page's callbackUrl).
      forgetReturnPath(browserStorage());
      if (linkEmail) {
        const linked = await linkedIdentities().catch(() => null);
        if (linked?.identities.some((identity) => identity.provider === "google"))
          notify.success("Your Google account is linked", "From now on you can also sign in with Google.");
      }
    } catch (error) {
      if (isApiError(error) && applyFieldErrors(error.fields, setError, ["email", "password"] as const)) return;
      notify.error(error, "Sign in failed");
    }
  });

  const unverified = session.status === "unverified";

  if (outcome === GOOGLE_SIGNED_IN && (!googleTaken || session.status === "loading" || session.status === "verified")) {
    return (
      <AuthCard title="Signing you in">
        <div role="status" data-testid="signin-google-landing" style={{ textAlign: "center", padding: 24 }}>
          <Spin aria-hidden /> <Typography.Text type="secondary">Finishing your Google sign-in…</Typography.Text>
        </div>
      </AuthCard>
    );
  }

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
      <GoogleSignInError
        code={
          params.get("error") ??
          (outcome === GOOGLE_SIGNED_IN && session.status === "anonymous" ? "google_invalid" : null)
        }
      />
      {linkEmail && (
        <Alert
          type="info"
          showIcon
          data-testid="signin-google-link"
          style={{ marginBottom: 16 }}
          title="Link your Google account"
          description={
            <>
              A Crafter account with <strong>{linkEmail}</strong> already exists. Sign in with its password once to link
              your Google account; from then on, Sign in with Google works too.
            </>
          }
        />
      )}
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
          autoFocus={!linkEmail}
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
          autoFocus={!!linkEmail}
        />
        <Button type="primary" htmlType="submit" size="large" block loading={isSubmitting} data-testid="signin-submit">
          Sign in
        </Button>
      </form>
      {!linkEmail && <GoogleSignIn intent="signin" callbackUrl={callbackUrl} />}
    </AuthCard>
  );
}
