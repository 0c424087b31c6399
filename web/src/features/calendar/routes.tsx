import { CalendarOutlined } from "@ant-design/icons";
import { lazy } from "react";
import type { RouteEntry } from "../../routing/route-types";

/** The content calendar, behind flag content_calendar; joined to ROUTES in app/areas.ts. */
const CalendarPage = lazy(() => import("./CalendarPage"));

export const CALENDAR_ROUTES: RouteEntry[] = [
  {
    path: "/app/calendar",
    title: "Content calendar",
    access: "app",
    flag: "content_calendar",
    Component: CalendarPage,
    menu: [
      {
        placement: "main",
        order: 30,
        label: "Content Calendar",
        icon: <CalendarOutlined />,
        testId: "nav-content-calendar",
      },
    ],
  },
];
