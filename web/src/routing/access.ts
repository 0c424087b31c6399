import { canOnProject } from "@crafter/roles";
import { flagAllows } from "../api/flags";
import type { FeatureFlags } from "../api/types";
import type { MenuEntry, MenuPlacement, RouteEntry } from "./route-types";

/**
 * Who is looking, as the route table's rules read it. `projectRole` is the role on the active project
 * (@crafter/roles PROJECT_ROLES): undefined while it loads, null when the active project is not
 * among the user's.
 */
export interface Viewer {
  role?: string | null;
  flags?: Pick<FeatureFlags, "enabledFeatures" | "disabledFeatures"> | null;
  projectRole?: string | null;
}

/** Why a route is not available to a viewer: its roles, its flag, or the project permission. */
export type Refusal = "role" | "flag" | "project";

/**
 * The one access rule of the route table (spec section 6): null when `viewer` may open `route`,
 * else the first reason it may not. Menus, the settings index and the page guard all use it.
 */
export function refusal(
  route: Pick<RouteEntry, "roles" | "flag" | "projectPermission">,
  viewer: Viewer,
): Refusal | null {
  if (route.roles && !(viewer.role && route.roles.includes(viewer.role))) return "role";
  if (!flagAllows(route.flag, viewer.flags)) return "flag";
  if (route.projectPermission && !canOnProject(viewer.projectRole, route.projectPermission)) return "project";
  return null;
}

export interface ResolvedMenuEntry extends MenuEntry {
  to: string;
  key: string;
}

/**
 * The entries of one placement that `viewer` may open, in their `order` (ties keep table order). An
 * entry that needs a project permission stays hidden while the project role loads.
 */
export function menuEntries(
  routes: readonly RouteEntry[],
  placement: MenuPlacement,
  viewer: Viewer,
): ResolvedMenuEntry[] {
  return routes
    .filter((route) => refusal(route, viewer) === null)
    .flatMap((route) =>
      (route.menu ?? [])
        .filter((entry) => entry.placement === placement)
        .map((entry) => ({ ...entry, to: entry.to ?? route.path, key: entry.to ?? route.path })),
    )
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.order - b.entry.order || a.index - b.index)
    .map(({ entry }) => entry);
}

export interface NavItem<E extends MenuEntry = MenuEntry> {
  entry: E;
  children: E[];
}

/**
 * Puts each child under its parent (`parent` = the parent's testId), keeping the order of
 * `entries`. A child whose parent is absent (its page, role or flag is off) stands on its own.
 */
export function arrangeMenu<E extends MenuEntry>(entries: E[]): NavItem<E>[] {
  const present = new Set(entries.map((entry) => entry.testId));
  return entries
    .filter((entry) => !(entry.parent && present.has(entry.parent)))
    .map((entry) => ({ entry, children: entries.filter((child) => child.parent === entry.testId) }));
}

/** The menu key to highlight for a location: the longest entry path the location starts with. */
export function selectedMenuKey(pathname: string, entries: ResolvedMenuEntry[]): string | undefined {
  let best: ResolvedMenuEntry | undefined;
  for (const entry of entries) {
    const matches = pathname === entry.to || pathname.startsWith(`${entry.to}/`);
    if (matches && (!best || entry.to.length > best.to.length)) best = entry;
  }
  return best?.key;
}
