import { Result, Spin } from "antd";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { useSWRConfig } from "swr";
import { api } from "../../api/api";
import { errorMessage } from "../../api/errors";
import { keys } from "../../api/keys";
import { LinkButton } from "../../shared/LinkButton";
import { settingsPaths } from "./settings-api";

/** One POST per token, even when React runs the effect twice (a second POST would find it used). */
const confirmations = new Map<string, Promise<{ email: string }>>();

function confirmOnce(token: string) {
  let pending = confirmations.get(token);
  if (!pending) {
    pending = api.post<{ email: string }>(settingsPaths.confirmEmail, { token });
    confirmations.set(token, pending);
  }
  return pending;
}

type State = { kind: "pending" } | { kind: "done"; email: string } | { kind: "failed"; message: string };

/** /confirm-email?token=…: the link sent to a new address applies the email change (issue 14). */
export default function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get("token")?.trim() ?? "";
  const { mutate } = useSWRConfig();
  const [state, setState] = useState<State>(() =>
    token ? { kind: "pending" } : { kind: "failed", message: "This link is missing its token." },
  );

  useEffect(() => {
    if (!token) return;
    let live = true;
    confirmOnce(token).then(
      async (result) => {
        if (api.hasSession()) await Promise.all([mutate(keys.account()), mutate(keys.initial())]);
        if (live) setState({ kind: "done", email: result?.email ?? "" });
      },
      (error) => live && setState({ kind: "failed", message: errorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [token, mutate]);

  const next = api.hasSession() ? "/app/settings/account-info" : "/signin";
  return (
    <div className="crafter-auth">
      {state.kind === "pending" && (
        <Result className="crafter-auth__card" icon={<Spin size="large" />} title="Changing your email…" />
      )}
      {state.kind === "done" && (
        <Result
          className="crafter-auth__card"
          status="success"
          title="Your email is changed"
          subTitle={`Sign in with ${state.email} from now on.`}
          data-testid="confirm-email-done"
          extra={
            <LinkButton to={next} type="primary">
              Continue
            </LinkButton>
          }
        />
      )}
      {state.kind === "failed" && (
        <Result
          className="crafter-auth__card"
          status="error"
          title="Your email could not be changed"
          subTitle={state.message}
          data-testid="confirm-email-failed"
          extra={<LinkButton to={next}>Continue</LinkButton>}
        />
      )}
    </div>
  );
}
