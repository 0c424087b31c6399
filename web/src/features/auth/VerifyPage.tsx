import { Result, Spin } from "antd";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { useSWRConfig } from "swr";
import { api } from "../../api/api";
import { errorMessage } from "../../api/errors";
import { keys } from "../../api/keys";
import { paths } from "../../api/paths";
import { browserStorage, recallReturnPath, withCallback } from "../../routing/return-path";
import { LinkButton } from "../../shared/LinkButton";
import { ResendVerification } from "./ResendVerification";

/** One POST per token, even when React runs the effect twice (a second POST would find it used). */
const verifications = new Map<string, Promise<{ email: string }>>();

function verifyOnce(token: string) {
  let pending = verifications.get(token);
  if (!pending) {
    pending = api.post<{ email: string }>(paths.verify, { token });
    verifications.set(token, pending);
  }
  return pending;
}

type State = { kind: "pending" } | { kind: "done"; email: string } | { kind: "failed"; message: string };

/** /verify?token=…: verifies the email, then links to sign in. */
export default function VerifyPage() {
  const [params] = useSearchParams();
  const token = params.get("token")?.trim() ?? "";
  // Back to where the visitor was going before signing up (an invitation link), when this browser kept it.
  const [signInLink] = useState(() => withCallback("/signin", recallReturnPath(browserStorage())));
  const { mutate } = useSWRConfig();
  const [state, setState] = useState<State>(() =>
    token ? { kind: "pending" } : { kind: "failed", message: "This verification link is missing its token." },
  );

  useEffect(() => {
    if (!token) return;
    let live = true;
    verifyOnce(token).then(
      async (result) => {
        // Signed in already (unverified)? A refresh re-issues the token with the verified email,
        // and the guard then moves the user on to /app (rule 3).
        if (api.hasSession()) {
          await api.refresh().catch(() => {});
          await mutate(keys.session());
        }
        if (live) setState({ kind: "done", email: result?.email ?? "" });
      },
      (error) => live && setState({ kind: "failed", message: errorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [token, mutate]);

  return (
    <div className="crafter-auth">
      {state.kind === "pending" && (
        <Result
          className="crafter-auth__card"
          icon={<Spin size="large" />}
          title="Verifying your email…"
          data-testid="verify-pending"
        />
      )}
      {state.kind === "done" && (
        <Result
          className="crafter-auth__card"
          status="success"
          title="Your email is verified"
          subTitle={
            state.email ? `${state.email} is ready to go. Sign in to start crafting.` : "Sign in to start crafting."
          }
          data-testid="verify-success"
          extra={
            <LinkButton to={signInLink} type="primary" size="large" data-testid="verify-signin-link">
              Sign in
            </LinkButton>
          }
        />
      )}
      {state.kind === "failed" && (
        <Result
          className="crafter-auth__card"
          status="error"
          title="We could not verify your email"
          subTitle={state.message}
          data-testid="verify-error"
          extra={[
            <div key="resend" style={{ maxWidth: 360, margin: "0 auto 16px" }}>
              <ResendVerification />
            </div>,
            <LinkButton to={signInLink} key="signin" type="primary">
              Sign in
            </LinkButton>,
            <LinkButton to="/signup" key="signup">
              Create an account
            </LinkButton>,
          ]}
        />
      )}
    </div>
  );
}
