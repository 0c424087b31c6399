import { AppstoreOutlined, CrownOutlined, DashboardOutlined, EditOutlined, SettingOutlined } from "@ant-design/icons";
import { lazy } from "react";
import { flagAllows } from "../api/flags";
import type { FeatureFlags } from "../api/types";
import type { MenuEntry, MenuGroup, RouteEntry } from "../routing/route-types";
import { AREA_ROUTES } from "./areas";
import { APP_HOME, CREATE_WORKFLOWS, createHref, PAGES, WELCOME_PATH } from "./route-data";

/**
 * The one route table: it drives the router (router.tsx), the menus (AppLayout) and access
 * (`access` picks the layout and the guard's rules apply by path; `roles` limits who sees and
 * opens a page). Only pages that work are listed; the spec's other entries join here when built.
 */
export type { Access, MenuEntry, MenuGroup, RouteEntry } from "../routing/route-types";

const HomePage = lazy(() => import("../features/home/HomePage"));
const SignInPage = lazy(() => import("../features/auth/SignInPage"));
const SignUpPage = lazy(() => import("../features/auth/SignUpPage"));
const VerifyPage = lazy(() => import("../features/auth/VerifyPage"));
const ForgotPasswordPage = lazy(() => import("../features/auth/ForgotPasswordPage"));
const ResetPasswordPage = lazy(() => import("../features/auth/ResetPasswordPage"));
const WelcomePage = lazy(() => import("../features/onboarding/WelcomePage"));
const DashboardPage = lazy(() => import("../features/dashboard/DashboardPage"));
const CraftsPage = lazy(() => import("../features/crafts/CraftsPage"));
const CraftPage = lazy(() => import("../features/crafts/CraftPage"));
const SettingsPage = lazy(() => import("../features/settings/SettingsPage"));
const WorkflowsPage = lazy(() => import("../features/workflows/WorkflowsPage"));
const ToolsPage = lazy(() => import("../features/tools/ToolsPage"));
const FavoritesPage = lazy(() => import("../features/favorites/FavoritesPage"));
const SmartDocumentsPage = lazy(() => import("../features/smart-documents/SmartDocumentsPage"));
const SmartDocumentsToolsPage = lazy(() =>
  import("../features/smart-documents/SmartDocumentsPage").then((m) => ({ default: m.SmartDocumentsToolsPage })),
);
const SmartDocumentsCraftsPage = lazy(() =>
  import("../features/smart-documents/SmartDocumentsPage").then((m) => ({ default: m.SmartDocumentsCraftsPage })),
);
const SubscriptionPage = lazy(() => import("../features/billing/SubscriptionPage"));
const WalletPage = lazy(() => import("../features/billing/WalletPage"));

export { APP_HOME, CREATE_WORKFLOWS, createHref, PAGES, WELCOME_PATH } from "./route-data";

export const ROUTES: RouteEntry[] = [
  { path: "/", title: "Craft marketing content with AI", access: "public", Component: HomePage },
  { path: "/signin", title: "Sign in", access: "auth", Component: SignInPage },
  { path: "/signup", title: "Create your account", access: "auth", Component: SignUpPage },
  { path: "/verify", title: "Verify your email", access: "auth", Component: VerifyPage },
  { path: "/forgot-password", title: "Forgot password", access: "auth", Component: ForgotPasswordPage },
  { path: "/reset-password", title: "Reset password", access: "auth", Component: ResetPasswordPage },
  { path: WELCOME_PATH, title: "Welcome", access: "app", Component: WelcomePage },
  {
    path: APP_HOME,
    title: "Dashboard",
    access: "app",
    Component: DashboardPage,
    menu: [{ group: "main", label: "Dashboard", icon: <DashboardOutlined />, testId: "nav-dashboard" }],
  },
  {
    path: "/app/crafts",
    title: "Contents",
    access: "app",
    Component: CraftsPage,
    menu: [{ group: "main", label: "Contents", icon: <AppstoreOutlined />, testId: "nav-contents" }],
  },
  {
    path: PAGES.craft,
    title: "Craft",
    access: "app",
    Component: CraftPage,
    // Smart documents have no project: the Create entry starts a standalone craft.
    menu: CREATE_WORKFLOWS.map((entry) => ({
      group: "create" as const,
      label: entry.label,
      to: createHref(entry),
      icon: <EditOutlined />,
      testId: entry.testId,
    })),
  },
  {
    path: PAGES.workflows,
    title: "Workflows",
    access: "app",
    Component: WorkflowsPage,
  },
  {
    path: PAGES.tools,
    title: "Tools",
    access: "app",
    Component: ToolsPage,
  },
  {
    path: PAGES.smartDocuments,
    title: "Smart documents",
    access: "app",
    Component: SmartDocumentsPage,
  },
  {
    path: PAGES.smartDocumentsTools,
    title: "Smart document tools",
    access: "app",
    Component: SmartDocumentsToolsPage,
  },
  { path: PAGES.smartDocumentsCrafts, title: "Smart documents", access: "app", Component: SmartDocumentsCraftsPage },
  {
    path: PAGES.favorites,
    title: "Favorites",
    access: "app",
    Component: FavoritesPage,
  },
  {
    path: "/app/settings",
    title: "Settings",
    access: "app",
    Component: SettingsPage,
    menu: [{ group: "user", label: "Settings", icon: <SettingOutlined />, testId: "nav-settings" }],
  },
  {
    path: PAGES.subscription,
    title: "Subscription",
    access: "app",
    Component: SubscriptionPage,
    menu: [{ group: "user", label: "Subscription", icon: <CrownOutlined />, testId: "nav-subscription" }],
  },
  {
    path: PAGES.wallet,
    title: "Wallet",
    access: "app",
    Component: WalletPage,
  },
  ...AREA_ROUTES,
];

export interface ResolvedMenuEntry extends MenuEntry {
  to: string;
  key: string;
}

/**
 * The menu entries of a group that this role may see and whose flag is on (spec section 6), in
 * table order; `arrangeMenu` (navigation.ts) puts them in the spec's order.
 */
export function menuEntries(group: MenuGroup, role?: string | null, flags?: FeatureFlags | null): ResolvedMenuEntry[] {
  return ROUTES.filter((route) => canAccess(route, role) && flagAllows(route.flag, flags)).flatMap((route) =>
    (route.menu ?? [])
      .filter((entry) => entry.group === group)
      .map((entry) => ({ ...entry, to: entry.to ?? route.path, key: entry.to ?? route.path })),
  );
}

export function canAccess(route: RouteEntry, role?: string | null): boolean {
  return !route.roles || (!!role && route.roles.includes(role));
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
