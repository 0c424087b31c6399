import { lazy } from "react";
import type { RouteEntry } from "../../app/route-types";

const ProjectsPage = lazy(() => import("./ProjectsPage"));

/** /app/projects (reached from the header's project switcher: the spec's menus do not list it). */
export const PROJECTS_ROUTES: RouteEntry[] = [
  { path: "/app/projects", title: "Projects", access: "app", Component: ProjectsPage },
];
