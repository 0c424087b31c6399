import { AppstoreOutlined, CrownOutlined, DashboardOutlined, EditOutlined, SettingOutlined } from "@ant-design/icons";
import { lazy } from "react";
import { SIGNIN_PATH, SIGNUP_PATH, VERIFY_PATH } from "../routing/guard";
import { APP_HOME, craftHref, PAGES, WELCOME_PATH } from "../routing/paths";
import type { MenuEntry, RouteEntry } from "../routing/route-types";
import { AREA_ROUTES } from "./areas";

/**
 * The one route table: it drives the router (router.tsx), the guard (`access`), the page gate
 * (`roles`, `flag`, `projectPermission`: routing/access.ts), the main, Create and user menus and the
 * Settings page's index (`menu`: placement and order). Only pages that work are listed; the spec's
 * other entries join here when built.
 */
export type { Access, MenuEntry, MenuPlacement, RouteEntry } from "../routing/route-types";

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

export { APP_HOME, PAGES, WELCOME_PATH } from "../routing/paths";

const create = (order: number, label: string, testId: string, to: string): MenuEntry => ({
  placement: "create",
  order,
  label,
  to,
  icon: <EditOutlined />,
  testId,
});

export const ROUTES: RouteEntry[] = [
  { path: "/", title: "Craft marketing content with AI", access: "public", Component: HomePage },
  { path: SIGNIN_PATH, title: "Sign in", access: "guest", Component: SignInPage },
  { path: SIGNUP_PATH, title: "Create your account", access: "guest", Component: SignUpPage },
  { path: VERIFY_PATH, title: "Verify your email", access: "guest", Component: VerifyPage },
  { path: "/forgot-password", title: "Forgot password", access: "auth", Component: ForgotPasswordPage },
  { path: "/reset-password", title: "Reset password", access: "auth", Component: ResetPasswordPage },
  { path: WELCOME_PATH, title: "Welcome", access: "app", withoutProject: true, Component: WelcomePage },
  {
    path: APP_HOME,
    title: "Dashboard",
    access: "app",
    Component: DashboardPage,
    menu: [{ placement: "main", order: 10, label: "Dashboard", icon: <DashboardOutlined />, testId: "nav-dashboard" }],
  },
  {
    path: "/app/crafts",
    title: "Contents",
    access: "app",
    Component: CraftsPage,
    menu: [{ placement: "main", order: 20, label: "Contents", icon: <AppstoreOutlined />, testId: "nav-contents" }],
  },
  {
    path: PAGES.craft,
    title: "Craft",
    access: "app",
    Component: CraftPage,
    // The Create menu's craft entries (spec section 2, "Navigation"): the craft page of a workflow,
    // except Email and Social media post, which open their template galleries (spec: create/email,
    // create/social-media-post); smart documents have no project and start a standalone craft.
    menu: [
      create(10, "Campaign strategy", "nav-create-campaign", craftHref("Campaign")),
      create(40, "Email", "nav-create-email", "/app/create/email"),
      create(50, "Social media post", "nav-create-social-media-post", "/app/create/social-media-post"),
      create(60, "Blog post", "nav-create-blog-post", craftHref("BlogWriter")),
      create(70, "Podcast", "nav-create-podcast", craftHref("PodcastWriter")),
      create(80, "Ad", "nav-create-ad", craftHref("AdsWriter")),
      create(90, "Web page", "nav-create-web-page", craftHref("WebPageWriter")),
      create(100, "Smart document", "nav-create-smart-document", craftHref("SmartEditor", { standalone: true })),
    ],
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
    menu: [{ placement: "user", order: 10, label: "Settings", icon: <SettingOutlined />, testId: "nav-settings" }],
  },
  {
    path: PAGES.subscription,
    title: "Subscription",
    access: "app",
    Component: SubscriptionPage,
    menu: [
      { placement: "user", order: 20, label: "Subscription", icon: <CrownOutlined />, testId: "nav-subscription" },
    ],
  },
  {
    path: PAGES.wallet,
    title: "Wallet",
    access: "app",
    Component: WalletPage,
  },
  ...AREA_ROUTES,
];
