import { requireFeature } from "../http/features";
import type { RouteDef } from "../http/registry";
import { accountRoutes } from "./account.routes";
import { adminRoutes } from "./admin.routes";
import { aiSettingsRoutes } from "./ai-settings.routes";
import { aiToolsRoutes } from "./ai-tools.routes";
import { apiKeyRoutes } from "./api-keys.routes";
import { approvalsRoutes } from "./approvals.routes";
import { authRoutes } from "./auth.routes";
import { billingRoutes } from "./billing.routes";
import { brandVoiceRoutes } from "./brand-voice.routes";
import { calendarRoutes } from "./calendar.routes";
import { campaignsRoutes } from "./campaigns.routes";
import { contactsRoutes } from "./contacts.routes";
import type { RouteDeps } from "./deps";
import { emailChangeRoutes } from "./email-change.routes";
import { GENERATED_ROUTE_FILES } from "./gen";
import { googleSignInRoutes } from "./google-signin.routes";
import { inboxRoutes } from "./inbox.routes";
import { integrationsRoutes } from "./integrations.routes";
import { leadsRoutes } from "./leads.routes";
import { mediaRoutes } from "./media.routes";
import { membersRoutes } from "./members.routes";
import { pagesRoutes } from "./pages.routes";
import { profilesRoutes } from "./profiles.routes";
import { projectsRoutes } from "./projects.routes";
import { publicContactsRoutes } from "./public-contacts.routes";
import { referralsRoutes } from "./referrals.routes";
import { sendersRoutes } from "./senders.routes";
import { settingsRoutes } from "./settings.routes";
import { templatesRoutes } from "./templates.routes";
import { trackingRoutes } from "./tracking.routes";
import { workflowsRoutes } from "./workflows.routes";

/**
 * Every hand-written REST route file of the gateway. A new file exports `(deps: RouteDeps) => RouteDef[]`
 * and is added here: it is then mounted, validated and in /api/openapi.json. A route that calls one
 * RPC is not written here but declared on the RPC (`(crafter.api.v1.route)`, ADR 0004): `make proto`
 * generates it into routes/gen, whose files are registered below with these.
 */
const ROUTE_FILES: Array<(deps: RouteDeps) => RouteDef[]> = [
  authRoutes,
  googleSignInRoutes,
  accountRoutes,
  projectsRoutes,
  membersRoutes,
  brandVoiceRoutes,
  profilesRoutes,
  workflowsRoutes,
  pagesRoutes,
  aiToolsRoutes,
  aiSettingsRoutes,
  apiKeyRoutes,
  billingRoutes,
  settingsRoutes,
  referralsRoutes,
  emailChangeRoutes,
  adminRoutes,
  contactsRoutes,
  leadsRoutes,
  publicContactsRoutes,
  mediaRoutes,
  calendarRoutes,
  inboxRoutes,
  campaignsRoutes,
  trackingRoutes,
  templatesRoutes,
  sendersRoutes,
  approvalsRoutes,
  integrationsRoutes,
];

/**
 * Generated routes that belong to a feature behind a flag, by path prefix: the flag is checked on
 * the server too (FEATURE_DISABLED), not only by the web's menu, so a hidden panel's API stays closed.
 */
const FLAGGED_PATHS: Array<{ pattern: RegExp; flag: string }> = [
  { pattern: /^\/api\/projects\/\{id\}\/custom-domain(?:\/|$)/, flag: "custom_domain_integration" },
  { pattern: /^\/api\/business\/google(?:\/|$)/, flag: "google_reviews" },
];

function withFlags(deps: RouteDeps, route: RouteDef): RouteDef {
  const flagged = FLAGGED_PATHS.find(({ pattern }) => pattern.test(route.path));
  if (!flagged) return route;
  return {
    ...route,
    handler: async (ctx) => {
      await requireFeature(deps.clients, ctx.as, flagged.flag);
      return route.handler(ctx);
    },
  };
}

export function allRoutes(deps: RouteDeps): RouteDef[] {
  return [...ROUTE_FILES, ...GENERATED_ROUTE_FILES]
    .flatMap((file) => file(deps))
    .map((route) => withFlags(deps, route));
}
