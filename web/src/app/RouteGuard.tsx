import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router-dom";
import { useSession } from "../api/hooks/session";
import { AUTH_ENTRY_PAGES, guard, isAppPath } from "../routing/guard";
import { ErrorState, FullPageSpin } from "../shared/states";

/**
 * Applies `guard` to the current location. Pages the guard can move a visitor away from (/app*
 * and the auth entry pages) wait for the session; other public pages render at once.
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  const session = useSession();
  const { pathname, search } = useLocation();
  const waits = isAppPath(pathname) || AUTH_ENTRY_PAGES.includes(pathname);

  if (session.status === "loading") return waits ? <FullPageSpin label="Checking your session" /> : children;
  if (session.status === "error") {
    return waits ? (
      <ErrorState error={session.error} onRetry={session.retry} title="We could not check your session" />
    ) : (
      children
    );
  }
  const target = guard({ pathname, search, session: session.status });
  if (target) return <Navigate to={target} replace />;
  return children;
}
