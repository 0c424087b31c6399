import type { RouteObject } from "react-router-dom";
import { RouteGate } from "../routing/RouteGate";
import type { Access, RouteEntry } from "../routing/route-types";

/**
 * A table entry as a router route: an "app" page stands behind its roles, flag and project
 * permission (RouteGate), so a page its viewer may not open never mounts.
 */
export function toRoute(entry: RouteEntry): RouteObject {
  const { Component } = entry;
  const element = entry.access === "app" ? <RouteGate entry={entry} /> : <Component />;
  return { path: entry.path, element, handle: entry };
}

/** The shell's own routes (an unknown /app path, /_app) are "app" to the guard too. */
export const APP_SHELL: { access: Access } = { access: "app" };
