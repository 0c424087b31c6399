import { BgColorsOutlined, PictureOutlined } from "@ant-design/icons";
import { lazy } from "react";
import type { RouteEntry } from "../../routing/route-types";
import { MEDIA_PAGES } from "./paths";

const AssetsPage = lazy(() => import("./AssetsPage"));
const DesignerPage = lazy(() => import("./designer/DesignerPage"));

/** The media area: the asset library and the visual designer. */
export const MEDIA_ROUTES: RouteEntry[] = [
  {
    path: MEDIA_PAGES.assets,
    title: "Assets",
    access: "app",
    Component: AssetsPage,
    menu: [{ placement: "main", order: 130, label: "Assets", icon: <PictureOutlined />, testId: "nav-assets" }],
  },
  {
    path: MEDIA_PAGES.designer,
    title: "Visual designer",
    access: "app",
    Component: DesignerPage,
    flag: "visual_designer",
    menu: [
      {
        placement: "main",
        order: 140,
        label: "Visual designer",
        parent: "nav-assets",
        icon: <BgColorsOutlined />,
        testId: "nav-visual-designer",
      },
    ],
  },
];
