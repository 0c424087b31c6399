import { AppstoreAddOutlined, ThunderboltOutlined } from "@ant-design/icons";
import { lazy } from "react";
import type { RouteEntry } from "../../routing/route-types";
import { AUTOMATION_PAGES } from "./paths";

/**
 * Automations (flag `automation`): the list, the templates (also "Automation (from templates)" in
 * the Create menu) and the flow builder with its run history. One spread in app/areas.ts.
 */

const AutomationsPage = lazy(() => import("./AutomationsPage"));
const AutomationTemplatesPage = lazy(() => import("./AutomationTemplatesPage"));
const AutomationPage = lazy(() => import("./AutomationPage"));

export const AUTOMATION_ROUTES: RouteEntry[] = [
  {
    path: AUTOMATION_PAGES.list,
    title: "Automation",
    access: "app",
    flag: "automation",
    Component: AutomationsPage,
    menu: [
      { placement: "main", order: 50, label: "Automation", icon: <ThunderboltOutlined />, testId: "nav-automation" },
    ],
  },
  {
    path: AUTOMATION_PAGES.templates,
    title: "Automation templates",
    access: "app",
    flag: "automation",
    Component: AutomationTemplatesPage,
    menu: [
      {
        placement: "create",
        order: 30,
        label: "Automation (from templates)",
        icon: <AppstoreAddOutlined />,
        testId: "nav-create-automation",
      },
    ],
  },
  {
    path: "/app/automation/:automationId",
    title: "Automation",
    access: "app",
    flag: "automation",
    Component: AutomationPage,
  },
];
