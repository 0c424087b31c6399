import { Result, Spin } from "antd";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { api } from "../api/api";
import { errorMessage } from "../api/errors";
import { LinkButton } from "./LinkButton";

/** One POST per link, even when React runs the effect twice (a second POST would find the token used). */
const confirmations = new Map<string, Promise<unknown>>();

function confirmOnce<T>(path: string, token: string): Promise<T> {
  const key = `${path}\n${token}`;
  let pending = confirmations.get(key);
  if (!pending) {
    pending = api.post<T>(path, { token });
    confirmations.set(key, pending);
  }
  return pending as Promise<T>;
}

/** What one kind of emailed link says and does. */
export interface TokenLinkPageProps<T> {
  /** The gateway route the link's `?token=` is POSTed to (`{ token }`), once per token. */
  path: string;
  /** Title while the link is being used ("Confirming the address…"). */
  pendingTitle: string;
  doneTitle: string;
  /** The line under the done title, from the route's answer. */
  doneText: (result: T | undefined) => string;
  failedTitle: string;
  /** Runs after a success, before the done state shows (e.g. refetching the account). */
  afterDone?: () => Promise<unknown> | undefined;
  /** Where Continue goes, signed in or not. */
  next: { signedIn: string; signedOut: string };
  /** `<testId>-done` and `<testId>-failed` on the two outcomes. */
  testId: string;
}

type State<T> = { kind: "pending" } | { kind: "done"; result: T | undefined } | { kind: "failed"; message: string };

/**
 * The page an emailed single-use link opens (`…?token=…`): it POSTs the token once, then says
 * whether that worked (with the route's error message when not) and offers to continue.
 */
export function TokenLinkPage<T>({
  path,
  pendingTitle,
  doneTitle,
  doneText,
  failedTitle,
  afterDone,
  next,
  testId,
}: TokenLinkPageProps<T>) {
  const [params] = useSearchParams();
  const token = params.get("token")?.trim() ?? "";
  const [state, setState] = useState<State<T>>(() =>
    token ? { kind: "pending" } : { kind: "failed", message: "This link is missing its token." },
  );
  // The latest callback, without making it a reason to use the link again.
  const after = useRef(afterDone);
  after.current = afterDone;

  useEffect(() => {
    if (!token) return;
    let live = true;
    confirmOnce<T>(path, token).then(
      async (result) => {
        await after.current?.();
        if (live) setState({ kind: "done", result });
      },
      (error) => live && setState({ kind: "failed", message: errorMessage(error) }),
    );
    return () => {
      live = false;
    };
  }, [path, token]);

  const to = api.hasSession() ? next.signedIn : next.signedOut;
  return (
    <div className="crafter-auth">
      {state.kind === "pending" && (
        <Result className="crafter-auth__card" icon={<Spin size="large" />} title={pendingTitle} />
      )}
      {state.kind === "done" && (
        <Result
          className="crafter-auth__card"
          status="success"
          title={doneTitle}
          subTitle={doneText(state.result)}
          data-testid={`${testId}-done`}
          extra={
            <LinkButton to={to} type="primary">
              Continue
            </LinkButton>
          }
        />
      )}
      {state.kind === "failed" && (
        <Result
          className="crafter-auth__card"
          status="error"
          title={failedTitle}
          subTitle={state.message}
          data-testid={`${testId}-failed`}
          extra={<LinkButton to={to}>Continue</LinkButton>}
        />
      )}
    </div>
  );
}
