import { Result, Spin } from "antd";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { errorMessage } from "../../../api/errors";
import { useInitial } from "../../../api/hooks/app";
import { useAcceptInvite } from "../../../api/members";
import { LinkButton } from "../../../shared/LinkButton";
import { ROLE_LABELS } from "./role-labels";

/** One POST per token, even when React runs the effect twice (a second POST would find it used). */
const acceptances = new Map<string, Promise<{ projectId: string; projectTitle: string; role: string }>>();

type State =
  | { kind: "pending" }
  | { kind: "done"; projectId: string; projectTitle: string; role: string }
  | { kind: "failed"; message: string };

/**
 * /app/invite?token=…: the link of a team invitation (issue 14). The guard sends a visitor without a
 * session to sign in first and back here; the signed-in user must have the invited address.
 */
export default function AcceptInvitePage() {
  const [params] = useSearchParams();
  const token = params.get("token")?.trim() ?? "";
  const accept = useAcceptInvite();
  // A newcomer without a project of their own is put in the joined one (useAcceptInvite reloads it).
  const activeProjectId = useInitial().data?.activeProjectInfo?.projectId;
  const [state, setState] = useState<State>(() =>
    token ? { kind: "pending" } : { kind: "failed", message: "This link is missing its token." },
  );

  useEffect(() => {
    if (!token) return;
    let live = true;
    let pending = acceptances.get(token);
    if (!pending) {
      pending = accept(token);
      acceptances.set(token, pending);
    }
    pending.then(
      (joined) =>
        live &&
        setState({ kind: "done", projectId: joined.projectId, projectTitle: joined.projectTitle, role: joined.role }),
      (error) => live && setState({ kind: "failed", message: errorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [token, accept]);

  return (
    <div style={{ padding: 24 }}>
      {state.kind === "pending" && <Result icon={<Spin size="large" />} title="Joining the project…" />}
      {state.kind === "done" && (
        <Result
          status="success"
          title={`You joined ${state.projectTitle}`}
          subTitle={`As ${ROLE_LABELS[state.role] ?? state.role}. ${
            activeProjectId === state.projectId ? "It is your active project now." : "Switch to it from your projects."
          }`}
          data-testid="invite-accepted"
          extra={
            <LinkButton to="/app/projects" type="primary">
              Open projects
            </LinkButton>
          }
        />
      )}
      {state.kind === "failed" && (
        <Result
          status="error"
          title="The invitation could not be accepted"
          subTitle={state.message}
          data-testid="invite-failed"
          extra={<LinkButton to="/app">Continue</LinkButton>}
        />
      )}
    </div>
  );
}
