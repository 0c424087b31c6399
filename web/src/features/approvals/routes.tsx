import { lazy } from "react";
import type { RouteEntry } from "../../routing/route-types";

const ReviewPage = lazy(() => import("./ReviewPage"));

/** Approval links: the reviewer's page, public (the link's token is the proof). */
export const APPROVAL_ROUTES: RouteEntry[] = [
  { path: "/review/:token", title: "Review", access: "public", Component: ReviewPage },
];
