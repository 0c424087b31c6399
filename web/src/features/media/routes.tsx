import { PictureOutlined } from "@ant-design/icons";
import { lazy } from "react";
import type { RouteEntry } from "../../app/route-types";

const AssetsPage = lazy(() => import("./AssetsPage"));

export const MEDIA_PAGES = {
  assets: "/app/assets",
  designer: "/app/designer",
} as const;

/** The media area (issue 11): the asset library and the visual designer. */
export const MEDIA_ROUTES: RouteEntry[] = [
  {
    path: MEDIA_PAGES.assets,
    title: "Assets",
    access: "app",
    Component: AssetsPage,
    menu: [{ group: "main", label: "Assets", icon: <PictureOutlined />, testId: "nav-assets" }],
  },
];
