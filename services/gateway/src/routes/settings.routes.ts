import { timestampDate } from "@bufbuild/protobuf/wkt";
import { appError } from "@crafter/kit";
import type { Request } from "express";
import { z } from "zod";
import { toUserInfo } from "../domain/mappers";
import { defineRoute, type RouteDef } from "../http/registry";
import { LINK_PATH, NOT_BLANK, newPassword, userInfoSchema } from "../http/schemas";
import type { RouteDeps } from "./deps";

/** One linked device (auth's DeviceSession); times ISO. */
export const deviceSessionSchema = z.object({
  id: z.string(),
  deviceKind: z.enum(["web", "mobile", "chrome"]),
  browser: z.string(),
  os: z.string(),
  place: z.string(),
  createdAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  current: z.boolean(),
});

export const changePasswordBody = z.object({
  currentPassword: z.string({ error: "Enter your current password" }).min(1, "Enter your current password").max(128),
  newPassword,
});

/**
 * The account service's rules (update-account-info.ts) as patterns the document states: a name is
 * empty (kept) or not blank; an image is empty (kept), the gateway's own /media/ path or an https
 * link to a named host (what its URL check admits, without surrounding spaces).
 */
export const accountInfoBody = z
  .object({
    displayName: z
      .string({ error: "Name must be text" })
      .max(80, "At most 80 characters")
      .regex(new RegExp(`^$|${NOT_BLANK.source}`), "Name is required")
      .optional(),
    image: z
      .string({ error: "Image must be a link" })
      .max(2048, "Image link is too long")
      .regex(
        new RegExp(`^$|^/media/${LINK_PATH}$|^https://([A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*(/${LINK_PATH})?$`),
        "Use an https image link",
      )
      .optional(),
  })
  .strict();

/** Sessions and passwords are a browser session's: a request made with an API key is refused. */
function refuseKeys(req: Request) {
  if (req.apiKey) throw appError("FORBIDDEN", "API keys cannot manage sessions or passwords.");
}

const iso = (value: Parameters<typeof timestampDate>[0] | undefined) =>
  value ? timestampDate(value).toISOString() : null;

/** /api/settings: account info, password and linked devices (settings sub-pages, issue 14). */
export function settingsRoutes({ clients }: RouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: "put",
      path: "/api/settings/account-info",
      tag: "settings",
      summary: "Change the display name and image; empty fields keep their value",
      auth: "session",
      body: accountInfoBody,
      response: userInfoSchema,
      handler: async ({ req, body, as }) => {
        refuseKeys(req);
        const [{ userInfo }, credits] = await Promise.all([
          clients.account.updateAccountInfo({ displayName: body.displayName ?? "", image: body.image ?? "" }, as),
          clients.billing.getCredits({}, as),
        ]);
        return toUserInfo(userInfo, credits);
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/settings/password",
      tag: "settings",
      summary: "Change the password (the current one is checked); every other session ends",
      auth: "session",
      body: changePasswordBody,
      response: z.object({ endedSessions: z.number().int() }),
      handler: async ({ req, body, as }) => {
        refuseKeys(req);
        return clients.auth.changePassword(body, as);
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/settings/sessions",
      tag: "settings",
      summary: "The user's signed-in devices, the last used first",
      auth: "session",
      response: z.object({ sessions: z.array(deviceSessionSchema) }),
      handler: async ({ req, as }) => {
        refuseKeys(req);
        const { sessions } = await clients.auth.listSessions({}, as);
        return {
          sessions: sessions.map((session) => ({
            id: session.id,
            deviceKind: (["web", "mobile", "chrome"] as const).find((kind) => kind === session.deviceKind) ?? "web",
            browser: session.browser,
            os: session.os,
            place: session.place,
            createdAt: iso(session.createdAt),
            lastUsedAt: iso(session.lastUsedAt),
            current: session.current,
          })),
        };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/settings/sessions/{id}",
      tag: "settings",
      summary: "Sign a device out: its session ends at once",
      auth: "session",
      params: z.object({ id: z.string().min(1).max(64) }),
      response: z.object({}),
      errors: ["NOT_FOUND"],
      handler: async ({ req, params, as }) => {
        refuseKeys(req);
        await clients.auth.revokeSession({ id: params.id }, as);
        return {};
      },
    }),
  ];
}
