import { ADMIN_ROUTES } from "../features/admin/routes";
import { APPROVAL_ROUTES } from "../features/approvals/routes";
import { AUTOMATION_ROUTES } from "../features/automations/routes";
import { BILLING_ROUTES } from "../features/billing/routes";
import { BUSINESS_ROUTES } from "../features/business/routes";
import { CALENDAR_ROUTES } from "../features/calendar/routes";
import { CAMPAIGN_ROUTES } from "../features/campaign/routes";
import { CONTACTS_ROUTES } from "../features/contacts/routes";
import { EMAIL_ROUTES } from "../features/email/routes";
import { HELP_ROUTES } from "../features/help/routes";
import { MEDIA_ROUTES } from "../features/media/routes";
import { OFFERINGS_ROUTES } from "../features/offerings/routes";
import { PROJECTS_ROUTES } from "../features/projects/routes";
import { PUBLIC_ROUTES } from "../features/public/routes";
import { SETTINGS_ROUTES } from "../features/settings/routes";
import type { RouteEntry } from "../routing/route-types";

/**
 * The routes of each product area, appended to ROUTES (routes.tsx). Each area keeps its table in
 * its feature folder (web/src/features/<area>/routes.tsx) and adds one spread here, so work on
 * separate areas does not collide in one array.
 */
export const AREA_ROUTES: RouteEntry[] = [
  ...BILLING_ROUTES,
  ...CONTACTS_ROUTES,
  ...MEDIA_ROUTES,
  ...PROJECTS_ROUTES,
  ...OFFERINGS_ROUTES,
  ...CAMPAIGN_ROUTES,
  ...EMAIL_ROUTES,
  ...BUSINESS_ROUTES,
  ...HELP_ROUTES,
  ...SETTINGS_ROUTES,
  ...ADMIN_ROUTES,
  ...PUBLIC_ROUTES,
  ...AUTOMATION_ROUTES,
  ...CALENDAR_ROUTES,
  ...APPROVAL_ROUTES,
];
