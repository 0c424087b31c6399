import { SafetyOutlined } from "@ant-design/icons";
import { PERMISSIONS } from "@crafter/roles";
import { lazy } from "react";
import type { RouteEntry } from "../../routing/route-types";

const AdminPage = lazy(() => import("./AdminPage"));

/** /app/admin: only the roles @crafter/roles lets see Admin (superadmin, admin). */
export const ADMIN_ROUTES: RouteEntry[] = [
  {
    path: "/app/admin",
    title: "Admin",
    access: "app",
    Component: AdminPage,
    roles: [...PERMISSIONS["admin.view"]],
    menu: [{ placement: "user", order: 30, label: "Admin", icon: <SafetyOutlined />, testId: "nav-admin" }],
  },
];
