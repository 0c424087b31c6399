import { Result, Spin } from "antd";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { api } from "../../api/api";
import { errorMessage } from "../../api/errors";
import { LinkButton } from "../../shared/LinkButton";
import { senderPaths } from "./sender-api";

/** One POST per token, even when React runs the effect twice (a second POST would find it used). */
const confirmations = new Map<string, Promise<{ address: string }>>();

function confirmOnce(token: string) {
  let pending = confirmations.get(token);
  if (!pending) {
    pending = api.post<{ address: string }>(senderPaths.confirm, { token });
    confirmations.set(token, pending);
  }
  return pending;
}

type State = { kind: "pending" } | { kind: "done"; address: string } | { kind: "failed"; message: string };

/** /confirm-sender?token=…: the link emailed to a from address; following it lets the business send from it. */
export default function SenderConfirmPage() {
  const [params] = useSearchParams();
  const token = params.get("token")?.trim() ?? "";
  const [state, setState] = useState<State>(() =>
    token ? { kind: "pending" } : { kind: "failed", message: "This link is missing its token." },
  );

  useEffect(() => {
    if (!token) return;
    let live = true;
    confirmOnce(token).then(
      (result) => live && setState({ kind: "done", address: result?.address ?? "" }),
      (error) => live && setState({ kind: "failed", message: errorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  const next = api.hasSession() ? "/app/settings/sender" : "/";
  return (
    <div className="crafter-auth">
      {state.kind === "pending" && (
        <Result className="crafter-auth__card" icon={<Spin size="large" />} title="Confirming the address…" />
      )}
      {state.kind === "done" && (
        <Result
          className="crafter-auth__card"
          status="success"
          title="The address is confirmed"
          subTitle={`Email campaigns can now be sent from ${state.address}.`}
          data-testid="sender-confirm-done"
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
          title="The address could not be confirmed"
          subTitle={state.message}
          data-testid="sender-confirm-failed"
          extra={<LinkButton to={next}>Continue</LinkButton>}
        />
      )}
    </div>
  );
}
