import { PERMISSIONS } from "@crafter/roles";
import { lazy } from "react";
import type { MenuEntry, RouteEntry } from "../../routing/route-types";

const AccountInfoPage = lazy(() => import("./AccountInfoPage"));
const ChangePasswordPage = lazy(() => import("./ChangePasswordPage"));
const LinkedDevicesPage = lazy(() => import("./LinkedDevicesPage"));
const IntegrationsPage = lazy(() => import("./IntegrationsPage"));
const ProfilePage = lazy(() => import("./ProfilePage"));
const AiSettingsPage = lazy(() => import("./AiSettingsPage"));
const ReferralsPage = lazy(() => import("./ReferralsPage"));
const ConfirmEmailPage = lazy(() => import("./ConfirmEmailPage"));
const SenderSettingsPage = lazy(() => import("../sender/SenderSettingsPage"));
const SenderConfirmPage = lazy(() => import("../sender/SenderConfirmPage"));

/** The Settings page's link to a sub-page (its test id is `settings-link-<last path segment>`). */
const index = (order: number, label: string, slug: string): MenuEntry[] => [
  { placement: "settings", order, label, testId: `settings-link-${slug}` },
];

/**
 * The settings sub-pages of spec section 2 that this area owns (billing owns its own), each listed
 * on the Settings page's index in `order`, where its roles, flag and project permission allow.
 */
export const SETTINGS_ROUTES: RouteEntry[] = [
  {
    path: "/app/settings/account-info",
    title: "Account info",
    access: "app",
    Component: AccountInfoPage,
    menu: index(10, "Account info", "account-info"),
  },
  {
    path: "/app/settings/change-password",
    title: "Password and sign-in",
    access: "app",
    Component: ChangePasswordPage,
    menu: index(20, "Password and sign-in", "change-password"),
  },
  {
    path: "/app/settings/linked-devices",
    title: "Linked devices",
    access: "app",
    Component: LinkedDevicesPage,
    menu: index(30, "Linked devices", "linked-devices"),
  },
  {
    path: "/app/settings/integrations",
    title: "Integrations",
    access: "app",
    Component: IntegrationsPage,
    menu: index(40, "Integrations", "integrations"),
  },
  {
    path: "/app/settings/profile",
    title: "Profile",
    access: "app",
    Component: ProfilePage,
    menu: index(50, "Profile", "profile"),
  },
  {
    path: "/app/settings/ai",
    title: "AI settings",
    access: "app",
    Component: AiSettingsPage,
    roles: [...PERMISSIONS["ai.settings"]],
    menu: index(60, "AI settings", "ai"),
  },
  // The active project's sender identity and DKIM: the gateway's rule (project.settings) decides who sees it.
  {
    path: "/app/settings/sender",
    title: "Sender",
    access: "app",
    projectPermission: "project.settings",
    Component: SenderSettingsPage,
    menu: index(70, "Sender", "sender"),
  },
  {
    path: "/app/settings/referrals",
    title: "Referrals",
    access: "app",
    flag: "first_promoter",
    Component: ReferralsPage,
    menu: index(80, "Referrals", "referrals"),
  },
  // The link of an email change: opened signed in or not.
  { path: "/confirm-email", title: "Confirm your new email", access: "public", Component: ConfirmEmailPage },
  // The link emailed to a sender's from address: opened signed in or not (often by someone else).
  { path: "/confirm-sender", title: "Confirm a sender address", access: "public", Component: SenderConfirmPage },
];
