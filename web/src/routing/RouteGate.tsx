import { Result } from "antd";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { LoadingBlock } from "../shared/states";
import { type Refusal, refusal, type Viewer } from "./access";
import { APP_HOME } from "./paths";
import type { RouteEntry } from "./route-types";
import { useViewer } from "./viewer";

const WHY: Record<Refusal, string> = {
  role: "Your account's role does not include it. Ask an administrator of Crafter if you need it.",
  flag: "This feature is not enabled for your account.",
  project: "Your role on the active project does not include it. Ask the project's owner if you need it.",
};

/**
 * The page shown instead of a route its viewer may not open (its roles, flag or project
 * permission): a full page with the way back, never an error toast.
 */
export function NotAvailablePage({ reason }: { reason: Refusal }) {
  return (
    <Result
      status={reason === "flag" ? "info" : "403"}
      title="This page is not available for your account"
      subTitle={WHY[reason]}
      extra={<Link to={APP_HOME}>Back to the dashboard</Link>}
      data-testid="page-not-available"
      data-reason={reason}
    />
  );
}

/**
 * Renders `children` (the route's page) only when `viewer` may open `entry`; otherwise the
 * not-available page, so the page never mounts and none of its calls is made. A route that needs a
 * project permission waits while the project role loads.
 */
export function Gate({ entry, viewer, children }: { entry: RouteEntry; viewer: Viewer; children: ReactNode }) {
  const reason = refusal(entry, viewer);
  if (reason === "project" && viewer.projectRole === undefined) return <LoadingBlock rows={6} />;
  return reason ? <NotAvailablePage reason={reason} /> : children;
}

/** The router's element for an "app" route: its page behind the route table's access rule. */
export function RouteGate({ entry }: { entry: RouteEntry }) {
  const viewer = useViewer({ project: Boolean(entry.projectPermission) });
  const { Component } = entry;
  return (
    <Gate entry={entry} viewer={viewer}>
      <Component />
    </Gate>
  );
}
