import { ShopOutlined } from "@ant-design/icons";
import { lazy } from "react";
import type { RouteEntry } from "../../routing/route-types";

const load = (name: keyof typeof import("./OfferingsPages")) =>
  lazy(() => import("./OfferingsPages").then((m) => ({ default: m[name] as React.ComponentType })));

/** /app/offerings and its product and service pages (base, tools, crafts each). */
export const OFFERINGS_ROUTES: RouteEntry[] = [
  {
    path: "/app/offerings",
    title: "Offerings",
    access: "app",
    Component: load("default"),
    menu: [{ placement: "main", order: 110, label: "Offerings", icon: <ShopOutlined />, testId: "nav-offerings" }],
  },
  { path: "/app/offerings/product", title: "Products", access: "app", Component: load("ProductsPage") },
  { path: "/app/offerings/product/tools", title: "Product tools", access: "app", Component: load("ProductToolsPage") },
  {
    path: "/app/offerings/product/crafts",
    title: "Product crafts",
    access: "app",
    Component: load("ProductCraftsPage"),
  },
  { path: "/app/offerings/service", title: "Services", access: "app", Component: load("ServicesPage") },
  { path: "/app/offerings/service/tools", title: "Service tools", access: "app", Component: load("ServiceToolsPage") },
  {
    path: "/app/offerings/service/crafts",
    title: "Service crafts",
    access: "app",
    Component: load("ServiceCraftsPage"),
  },
];
