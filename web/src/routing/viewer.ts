import { createContext, useContext, useMemo } from "react";
import { useFlags, useInitial } from "../api/hooks/app";
import { useActiveProjectRole } from "../api/hooks/projects";
import { menuEntries, type ResolvedMenuEntry, type Viewer } from "./access";
import type { MenuPlacement, RouteEntry } from "./route-types";

/**
 * The route table, provided once by the router (app/router.tsx), so the layers below `app/` (the
 * Settings page's index, the shell's menus) read the same table without importing it.
 */
export const RouteTableContext = createContext<readonly RouteEntry[]>([]);

/**
 * The signed-in viewer from the initial state (account role, flags) and, when `project` is set, the
 * role on the active project from `GET /api/projects` (undefined while it loads, null without one).
 */
export function useViewer({ project = false }: { project?: boolean } = {}): Viewer {
  const { data: initial } = useInitial();
  const flags = useFlags();
  const projectRole = useActiveProjectRole(project);
  const role = initial?.userInfo?.role ?? null;
  return useMemo(() => ({ role, flags, projectRole }), [role, flags, projectRole]);
}

/** The entries of one placement of the route table this viewer may open, in order. */
export function useMenu(
  placement: MenuPlacement,
  { project = false }: { project?: boolean } = {},
): ResolvedMenuEntry[] {
  const routes = useContext(RouteTableContext);
  const viewer = useViewer({ project });
  return useMemo(() => menuEntries(routes, placement, viewer), [routes, placement, viewer]);
}
