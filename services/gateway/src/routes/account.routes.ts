import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Request } from "express";
import { z } from "zod";
import type { Clients } from "../clients";
import { toActiveProjectInfo, toUserInfo } from "../domain/mappers";
import type { ActingResolver } from "../http/acting";
import { defineRoute, type RouteDef } from "../http/registry";
import { activeProjectInfoSchema, flagsSchema, userInfoSchema } from "../http/schemas";
import type { asUser } from "../http/session";
import type { RouteDeps } from "./deps";

const RECENT_CRAFTS = 5;

/**
 * The newest crafts of the active project (activeProjectInfo.crafts); none without a project. On a
 * team member's project they are the owner's, read with the member's delegated token (http/acting.ts).
 */
export async function recentCrafts(
  clients: Clients,
  acting: ActingResolver,
  req: Request,
  active: { projectId?: string; role: string },
  as: ReturnType<typeof asUser>,
) {
  const { projectId } = active;
  if (!projectId) return [];
  const craftsAs =
    active.role && active.role !== "owner"
      ? (await acting({ userId: req.user?.userId ?? "", token: req.accessToken ?? "" }, projectId, "project.read")).as
      : as;
  return (await clients.workflows.listCrafts({ projectId, page: 1, pageSize: RECENT_CRAFTS }, craftsAs)).crafts;
}

const settingsResult = z.object({ settings: z.looseObject({}) });

/** /api: the user's initial data, account, flags and settings (spec section 7). */

/** A value a settings merge ignores (null, "", []): the account service skips it. */
const emptySetting = z.union([z.null(), z.literal(""), z.array(z.never()).max(0)]);
/** One setting: its rule or an empty value; `message` (the account service's) when it is neither. */
const setting = (rule: z.ZodType, message: string) => z.union([rule, emptySetting], { error: message }).optional();
// A short identifier-like value ("list", "predefinedTemplates", "320px", "medium").
const token = (label: string) =>
  setting(
    z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.%-]{0,49}$/),
    `${label} must be a short name of letters, digits, '-', '_', '.' or '%'`,
  );
const boolean = (label: string) => setting(z.boolean(), `${label} must be true or false`);
const columns = (label: string) =>
  setting(
    z.array(z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/)).max(50),
    `${label} must be a list of at most 50 column names of letters, digits, '_', '.' or '-' (at most 64)`,
  );

/**
 * A partial update of the user settings of spec section 3: the account service's rules per key
 * (services/account/src/domain/settings.ts RULES), without the trimming it also does, so the
 * document states them exactly; any other key is "Unknown setting", as the service answers.
 */
const settingsPatch = z.strictObject(
  {
    theme: setting(z.enum(["light", "dark"]), "Theme must be one of: light, dark"),
    viewMode: token("View mode"),
    fastGeneration: boolean("Fast generation"),
    leftSidebarOpen: boolean("Left sidebar open"),
    rightSidebarOpen: boolean("Right sidebar open"),
    rightSidebarWidth: token("Right sidebar width"),
    customerProfileColumns: columns("Customer profile columns"),
    contentCalendarColumns: columns("Content calendar columns"),
    contentCalendarViewMode: token("Content calendar view mode"),
    onboardingSkipped: boolean("Onboarding skipped"),
    activeTemplateType: token("Active template type"),
  },
  { error: (issue) => (issue.code === "unrecognized_keys" ? "Unknown setting" : undefined) },
);

export function accountRoutes({ clients, views, acting }: RouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/app/initial",
      tag: "account",
      summary: "Everything the dashboard needs after sign-in",
      auth: "session",
      response: z.object({
        userInfo: userInfoSchema,
        featureFlag: flagsSchema,
        activeProjectInfo: activeProjectInfoSchema,
        userSettings: settingsResult,
      }),
      // Cached per user until a write bumps the user's view version (cache/user-views.ts).
      handler: async ({ req, as }) =>
        views.get(
          req.user?.userId ?? "",
          "initial",
          async () => {
            const [userInfo, credits, flags, settings, active] = await Promise.all([
              clients.account.getUserInfo({}, as),
              clients.billing.getCredits({}, as),
              clients.account.getFlags({}, as),
              clients.account.getSettings({}, as),
              clients.projects.getActiveProject({}, as),
            ]);
            const crafts = await recentCrafts(clients, acting, req, active, as);
            return {
              value: {
                userInfo: toUserInfo(userInfo.userInfo, credits),
                featureFlag: {
                  enabledFeatures: flags.enabledFeatures,
                  disabledFeatures: flags.disabledFeatures,
                  allFeatures: flags.allFeatures,
                },
                activeProjectInfo: toActiveProjectInfo(active, crafts),
                userSettings: { settings: settings.settings ?? {} },
              },
              validUntil: credits.expiresAt ? timestampDate(credits.expiresAt) : undefined,
            };
          },
          req,
        ),
    }),
    defineRoute({
      method: "get",
      path: "/api/user/account",
      tag: "account",
      summary: "The user's account: credits, plan and profile",
      auth: "session",
      response: userInfoSchema,
      handler: async ({ req, as }) =>
        views.get(
          req.user?.userId ?? "",
          "account",
          async () => {
            const [userInfo, credits] = await Promise.all([
              clients.account.getUserInfo({}, as),
              clients.billing.getCredits({}, as),
            ]);
            return {
              value: toUserInfo(userInfo.userInfo, credits),
              validUntil: credits.expiresAt ? timestampDate(credits.expiresAt) : undefined,
            };
          },
          req,
        ),
    }),
    defineRoute({
      method: "get",
      path: "/api/flags/user",
      tag: "account",
      summary: "The user's feature flags",
      auth: "session",
      response: flagsSchema,
      handler: async ({ as }) => {
        const flags = await clients.account.getFlags({}, as);
        return {
          enabledFeatures: flags.enabledFeatures,
          disabledFeatures: flags.disabledFeatures,
          allFeatures: flags.allFeatures,
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/userSettings/settings",
      tag: "account",
      summary: "The user's settings",
      auth: "session",
      response: settingsResult,
      handler: async ({ as }) => ({ settings: (await clients.account.getSettings({}, as)).settings ?? {} }),
    }),
    defineRoute({
      method: "put",
      path: "/api/userSettings/settings",
      tag: "account",
      summary: "Merge settings (a bare object or `{ settings }`); empty values are ignored",
      auth: "session",
      // The nested form's `settings` wins over keys beside it (each still checked).
      body: settingsPatch.extend({ settings: settingsPatch.optional() }),
      response: settingsResult,
      handler: async ({ body, as }) => {
        const { settings: nested, ...bare } = body;
        const settings = (nested ?? bare) as Record<string, never>;
        return { settings: (await clients.account.updateSettings({ settings }, as)).settings ?? {} };
      },
    }),
  ];
}
