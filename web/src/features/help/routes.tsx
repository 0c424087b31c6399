import { lazy } from "react";
import type { RouteEntry } from "../../routing/route-types";

const HelpPage = lazy(() => import("./HelpPage"));

/** /app/help: searchable help (the header's help button opens the current page's). */
export const HELP_ROUTES: RouteEntry[] = [
  { path: "/app/help", title: "Help", access: "app", Component: HelpPage },
  { path: "/app/help/:slug", title: "Help", access: "app", Component: HelpPage },
];
