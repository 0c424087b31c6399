import { lazy, Suspense, useEffect } from "react";
import { createBrowserRouter, Navigate, Outlet, type RouteObject, useMatches, useRouteError } from "react-router-dom";
import { api } from "../api/api";
import { useHasSession } from "../api/hooks/session";
import { RouteTableContext } from "../routing/viewer";
import { CrashScreen } from "../shared/CrashScreen";
import { FullPageSpin } from "../shared/page-status";
import { RouteGuard } from "./RouteGuard";
import { APP_SHELL, toRoute } from "./route-objects";
import { APP_HOME, ROUTES, type RouteEntry } from "./routes";

// Each layout loads with the first page that uses it: the public site's first load carries none of
// the /app shell (menus, header, assistant, inbox), and the dashboard's none of the marketing frame.
const loadAppLayout = () => import("./layouts/AppLayout");
const loadPublicLayout = () => import("./layouts/PublicLayout");
const AppLayout = lazy(() => loadAppLayout().then((module) => ({ default: module.AppLayout })));
const PublicLayout = lazy(() => loadPublicLayout().then((module) => ({ default: module.PublicLayout })));
const NotFoundPage = lazy(() => import("../features/home/NotFoundPage"));
// antd's App wraps the layouts, so both are fetched now, side by side, rather than one after the other.
const antApp = import("./ant-app");
const AntAppFrame = lazy(() => antApp);
if (typeof window !== "undefined")
  void (/^\/_?app(?:\/|$)/.test(window.location.pathname) ? loadAppLayout() : loadPublicLayout());

/** Sets the document title from the matched route table entry. */
function DocumentTitle() {
  const matches = useMatches();
  const entry = [...matches].reverse().find((match) => (match.handle as RouteEntry | undefined)?.title)?.handle as
    | RouteEntry
    | undefined;
  useEffect(() => {
    // A business's own page is titled by the page (then by the business, once known), not by Crafter.
    document.title = entry ? (entry.frame === "business" ? entry.title : `${entry.title} · Crafter`) : "Crafter";
  }, [entry]);
  return null;
}

/** Keeps the 55-minute refresh timer running while a session exists. */
function RefreshTimer() {
  const hasSession = useHasSession();
  useEffect(() => (hasSession ? api.startRefreshTimer() : undefined), [hasSession]);
  return null;
}

function Root() {
  return (
    <RouteTableContext.Provider value={ROUTES}>
      <DocumentTitle />
      <RefreshTimer />
      <RouteGuard>
        <Suspense fallback={<FullPageSpin />}>
          <AntAppFrame>
            <Outlet />
          </AntAppFrame>
        </Suspense>
      </RouteGuard>
    </RouteTableContext.Provider>
  );
}

/** A render crash inside the router: the spec's crash screen (local storage cleared). */
function RouteCrash() {
  const error = useRouteError();
  useEffect(() => {
    console.error("Render crash", error);
  }, [error]);
  return <CrashScreen />;
}

export const routeObjects: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteCrash />,
    children: [
      { element: <PublicLayout />, children: ROUTES.filter((route) => route.access !== "app").map(toRoute) },
      {
        path: "/app",
        element: <AppLayout />,
        handle: APP_SHELL,
        children: [
          { index: true, element: <Navigate to={APP_HOME} replace /> },
          ...ROUTES.filter((route) => route.access === "app").map(toRoute),
          { path: "*", element: <NotFoundPage /> },
        ],
      },
      { path: "/_app", element: <Navigate to="/app" replace />, handle: APP_SHELL },
      { element: <PublicLayout />, children: [{ path: "*", element: <NotFoundPage /> }] },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routeObjects);
}
