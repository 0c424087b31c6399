import { lazy } from "react";
import type { RouteObject } from "react-router-dom";
import type { Access, RouteEntry } from "../routing/route-types";

// The gate (its not-available page, the viewer's role, flags and projects) loads with the first
// app page, beside the /app shell, rather than with every page's first load.
export const LazyRouteGate = lazy(() =>
  import("../routing/RouteGate").then((module) => ({ default: module.RouteGate })),
);

/**
 * A table entry as a router route: an "app" page stands behind its roles, flag and project
 * permission (RouteGate), so a page its viewer may not open never mounts.
 */
export function toRoute(entry: RouteEntry): RouteObject {
  const { Component } = entry;
  const element = entry.access === "app" ? <LazyRouteGate entry={entry} /> : <Component />;
  return { path: entry.path, element, handle: entry };
}

/** The shell's own routes (an unknown /app path, /_app) are "app" to the guard too. */
export const APP_SHELL: { access: Access } = { access: "app" };
