import { ADMIN_ROUTES } from "../features/admin/routes";
import { PUBLIC_ROUTES } from "../features/public/routes";
import { SETTINGS_ROUTES } from "../features/settings/routes";
import type { RouteEntry } from "./route-types";

/**
 * The routes of each product area, appended to ROUTES (routes.tsx). Each area keeps its table in
 * its feature folder (web/src/features/<area>/routes.tsx) and adds one spread here, so work on
 * separate areas does not collide in one array.
 */
export const AREA_ROUTES: RouteEntry[] = [...SETTINGS_ROUTES, ...ADMIN_ROUTES, ...PUBLIC_ROUTES];
