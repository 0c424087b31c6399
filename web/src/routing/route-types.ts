import type { ProjectPermission } from "@crafter/roles";
import type { ComponentType, ReactNode } from "react";

/**
 * The route table's types (app/routes.tsx assembles the table from each area's
 * `features/<area>/routes.tsx`). One entry says everything the router, the guard, the menus and the
 * settings index need about a page.
 *
 * Access, which the guard applies (spec section 4):
 * - "app": under the app shell; a visitor without a session goes to /signin with a callbackUrl, an
 *   unverified one to /signin;
 * - "guest": the sign-in, sign-up and verify pages, which a verified user leaves for the
 *   callbackUrl or the app;
 * - "auth": the other account pages (forgot and reset password), open to anyone;
 * - "public": the public site and the links sent by email, open to anyone.
 */
export type Access = "public" | "guest" | "auth" | "app";

/**
 * Where an entry is listed: the sider's main menu, the Create menu, the header's user menu, or the
 * Settings page's index of sub-pages.
 */
export type MenuPlacement = "main" | "create" | "user" | "settings";

export interface MenuEntry {
  placement: MenuPlacement;
  /** Position within its placement (and among its parent's children), lowest first. */
  order: number;
  /** The testId of the main entry this one is a child of (Contacts → Segments…). */
  parent?: string;
  label: string;
  /** Where the entry links (defaults to the route's path; needed for parameterised routes). */
  to?: string;
  icon?: ReactNode;
  testId: string;
}

export interface RouteEntry {
  path: string;
  title: string;
  access: Access;
  Component: ComponentType;
  menu?: MenuEntry[];
  /** The feature flag (spec §5) that gates the page and its menu entries. */
  flag?: string;
  /** When set, only these account roles see the menu entries and may open the page. */
  roles?: readonly string[];
  /**
   * The permission on the active project (@crafter/roles PROJECT_PERMISSIONS) the page needs: the
   * gateway refuses its calls to a project role without it, so its links are not shown and the page
   * is not opened.
   */
  projectPermission?: ProjectPermission;
  /**
   * An "app" page that opens before the user has a project (the welcome page, a team invitation,
   * whose acceptance gives one); every other app page sends such a user to the welcome page.
   */
  withoutProject?: boolean;
  /**
   * "business": a page a business shows its own visitors (its lead form, the double opt-in page),
   * framed by the business's name and logo and never by Crafter's header and footer.
   */
  frame?: "business";
}
