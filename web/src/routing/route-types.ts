import type { ProjectPermission } from "@crafter/roles";
import type { ComponentType, ReactNode } from "react";

/** The route table's types (routes.tsx and each area's routes in areas.ts share them). */
export type Access = "public" | "auth" | "app";
export type MenuGroup = "create" | "main" | "user";

export interface MenuEntry {
  /** The testId of the main entry this one is a child of (Contacts → Segments…). */
  parent?: string;
  group: MenuGroup;
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
  /** When set, only these roles see the menu entries and may open the page. */
  roles?: string[];
  /**
   * The permission on the active project (@crafter/roles PROJECT_PERMISSIONS) its links need: the
   * gateway refuses the page's calls to a project role without it, so its links are not shown.
   */
  projectPermission?: ProjectPermission;
  /**
   * "business": a page a business shows its own visitors (its lead form, the double opt-in page),
   * framed by the business's name and logo and never by Crafter's header and footer.
   */
  frame?: "business";
}
