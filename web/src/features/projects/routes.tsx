import { lazy } from "react";
import type { RouteEntry } from "../../routing/route-types";

const ProjectsPage = lazy(() => import("./ProjectsPage"));
const AcceptInvitePage = lazy(() => import("./members/AcceptInvitePage"));

/** /app/projects (reached from the header's project switcher: the spec's menus do not list it). */
export const PROJECTS_ROUTES: RouteEntry[] = [
  { path: "/app/projects", title: "Projects", access: "app", Component: ProjectsPage },
  // The team invitation link: signing in first brings the visitor back here.
  {
    path: "/app/invite",
    title: "Join a project",
    access: "app",
    withoutProject: true,
    Component: AcceptInvitePage,
  },
];
