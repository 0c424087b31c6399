import type { ReactNode } from "react";
import { Navigate, useLocation, useMatches } from "react-router-dom";
import { useSession } from "../api/hooks/session";
import { guard, guardWaits } from "../routing/guard";
import type { Access } from "../routing/route-types";
import { FullPageSpin, SessionError } from "../shared/page-status";

/** The access of the deepest matched route that declares one (the route table's; "public" if none). */
function useMatchedAccess(): Access {
  const matches = useMatches();
  for (let at = matches.length - 1; at >= 0; at -= 1) {
    const access = (matches[at]!.handle as { access?: Access } | undefined)?.access;
    if (access) return access;
  }
  return "public";
}

/**
 * Applies `guard` to the current location by the matched route's access. Routes the guard can move
 * a visitor away from ("app" and "guest") wait for the session; the others render at once.
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  const session = useSession();
  const { pathname, search } = useLocation();
  const access = useMatchedAccess();
  const waits = guardWaits(access);

  if (session.status === "loading") return waits ? <FullPageSpin label="Checking your session" /> : children;
  if (session.status === "error") {
    return waits ? <SessionError error={session.error} onRetry={session.retry} /> : children;
  }
  const target = guard({ access, pathname, search, session: session.status });
  if (target) return <Navigate to={target} replace />;
  return children;
}
