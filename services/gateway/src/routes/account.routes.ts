import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Request } from "express";
import { z } from "zod";
import type { Clients } from "../clients";
import { toActiveProjectInfo, toUserInfo } from "../domain/mappers";
import type { ActingResolver } from "../http/acting";
import { defineRoute, type RouteDef } from "../http/registry";
import { activeProjectInfoSchema, flagsSchema, jsonObject, userInfoSchema } from "../http/schemas";
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
      body: jsonObject("Settings"),
      response: settingsResult,
      handler: async ({ body, as }) => {
        const nested = body.settings;
        const settings = (typeof nested === "object" && nested && !Array.isArray(nested) ? nested : body) as Record<
          string,
          never
        >;
        return { settings: (await clients.account.updateSettings({ settings }, as)).settings ?? {} };
      },
    }),
  ];
}
