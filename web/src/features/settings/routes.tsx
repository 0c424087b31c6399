import { canOnProject, PERMISSIONS } from "@crafter/roles";
import { lazy } from "react";
import type { RouteEntry } from "../../routing/route-types";

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

/** The settings sub-pages of spec section 2 that this area owns (billing owns its own). */
export const SETTINGS_ROUTES: RouteEntry[] = [
  { path: "/app/settings/account-info", title: "Account info", access: "app", Component: AccountInfoPage },
  { path: "/app/settings/change-password", title: "Change password", access: "app", Component: ChangePasswordPage },
  { path: "/app/settings/linked-devices", title: "Linked devices", access: "app", Component: LinkedDevicesPage },
  { path: "/app/settings/integrations", title: "Integrations", access: "app", Component: IntegrationsPage },
  { path: "/app/settings/profile", title: "Profile", access: "app", Component: ProfilePage },
  {
    path: "/app/settings/ai",
    title: "AI settings",
    access: "app",
    Component: AiSettingsPage,
    roles: [...PERMISSIONS["ai.settings"]],
  },
  // The active project's sender identity and DKIM: the gateway's rule (project.settings) decides who sees it.
  {
    path: "/app/settings/sender",
    title: "Sender",
    access: "app",
    projectPermission: "project.settings",
    Component: SenderSettingsPage,
  },
  {
    path: "/app/settings/referrals",
    title: "Referrals",
    access: "app",
    flag: "first_promoter",
    Component: ReferralsPage,
  },
  // The link of an email change (issue 14): opened signed in or not.
  { path: "/confirm-email", title: "Confirm your new email", access: "public", Component: ConfirmEmailPage },
  // The link emailed to a sender's from address: opened signed in or not (often by someone else).
  { path: "/confirm-sender", title: "Confirm a sender address", access: "public", Component: SenderConfirmPage },
];

/** Links of the Settings page to its sub-pages, in the spec's order (each gated as its route is). */
export const SETTINGS_LINKS = SETTINGS_ROUTES.filter((route) => route.path.startsWith("/app/settings/")).map(
  (route) => ({
    to: route.path,
    label: route.title,
    flag: route.flag,
    roles: route.roles,
    projectPermission: route.projectPermission,
  }),
);

/**
 * The Settings page's links a user sees: those their flags allow, their account role may open
 * (`roles`) and their role on the active project may use (`projectPermission`, the rule the
 * gateway applies); a link that needs a project permission stays hidden while the role loads.
 */
export function visibleSettingsLinks(
  links: typeof SETTINGS_LINKS,
  who: { flagAllows: (flag: string | undefined) => boolean; accountRole?: string; projectRole?: string },
): typeof SETTINGS_LINKS {
  return links.filter(
    (link) =>
      who.flagAllows(link.flag) &&
      (!link.roles || (who.accountRole !== undefined && link.roles.includes(who.accountRole))) &&
      (!link.projectPermission || canOnProject(who.projectRole, link.projectPermission)),
  );
}
