import { BankOutlined, BulbOutlined } from "@ant-design/icons";
import { lazy } from "react";
import type { RouteEntry } from "../../routing/route-types";

const pages = () => import("./BusinessPages");
const BusinessPage = lazy(pages);
const BusinessProfilePage = lazy(() => pages().then((m) => ({ default: m.BusinessProfilePage })));
const StrategyPage = lazy(() => pages().then((m) => ({ default: m.StrategyPage })));
const BusinessToolsPage = lazy(() => pages().then((m) => ({ default: m.BusinessToolsPage })));
const ReviewsPage = lazy(() => import("./ReviewsPage").then((m) => ({ default: m.ReviewsPage })));

/** /app/business: base, profile, reviews, crafts (shown as Strategy) and tools. */
export const BUSINESS_ROUTES: RouteEntry[] = [
  {
    path: "/app/business",
    title: "Business",
    access: "app",
    Component: BusinessPage,
    menu: [{ placement: "main", order: 120, label: "Business", icon: <BankOutlined />, testId: "nav-business" }],
  },
  { path: "/app/business/profile", title: "Business profile", access: "app", Component: BusinessProfilePage },
  { path: "/app/business/reviews", title: "Reviews", access: "app", Component: ReviewsPage },
  {
    path: "/app/business/crafts",
    title: "Strategy",
    access: "app",
    Component: StrategyPage,
    menu: [{ placement: "main", order: 100, label: "Strategy", icon: <BulbOutlined />, testId: "nav-strategy" }],
  },
  { path: "/app/business/tools", title: "Business tools", access: "app", Component: BusinessToolsPage },
];
