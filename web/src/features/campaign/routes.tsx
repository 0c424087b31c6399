import { FlagOutlined } from "@ant-design/icons";
import { lazy } from "react";
import type { RouteEntry } from "../../routing/route-types";

const load = (name: keyof typeof import("./CampaignPages")) =>
  lazy(() => import("./CampaignPages").then((m) => ({ default: m[name] as React.ComponentType })));

/** /app/campaign: base, tools and crafts pages. */
export const CAMPAIGN_ROUTES: RouteEntry[] = [
  {
    path: "/app/campaign",
    title: "Campaigns",
    access: "app",
    Component: load("default"),
    menu: [{ placement: "main", order: 40, label: "Campaigns", icon: <FlagOutlined />, testId: "nav-campaigns" }],
  },
  { path: "/app/campaign/tools", title: "Campaign tools", access: "app", Component: load("CampaignToolsPage") },
  { path: "/app/campaign/crafts", title: "Campaign crafts", access: "app", Component: load("CampaignCraftsPage") },
];
