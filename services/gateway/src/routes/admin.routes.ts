import { timestampDate } from "@bufbuild/protobuf/wkt";
import { appError } from "@crafter/kit";
import { can, type Permission } from "@crafter/roles";
import type { Request } from "express";
import { z } from "zod";
import { defineRoute, type RouteDef } from "../http/registry";
import type { RouteDeps } from "./deps";

/**
 * Refuses callers whose role may not do `permission` (@crafter/roles; the account service checks
 * again), and API keys: Admin is for a browser session.
 */
function requireAdmin(req: Request, permission: Permission) {
  if (req.apiKey || !can(req.user?.role, permission)) throw appError("FORBIDDEN", "Only admins can do this.");
}

const iso = (value: Parameters<typeof timestampDate>[0] | undefined) =>
  value ? timestampDate(value).toISOString() : null;

const pageQuery = {
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
};

const paged = <T extends z.ZodType>(item: T) =>
  z.object({
    result: z.array(item),
    meta: z.object({ count: z.number().int(), currentPage: z.number().int(), totalPages: z.number().int() }),
  });

const metaOf = (count: number, page: number, pageSize: number) => ({
  count,
  currentPage: page,
  totalPages: Math.max(1, Math.ceil(count / pageSize)),
});

export const adminUserSchema = z.object({
  userId: z.string(),
  email: z.string(),
  displayName: z.string(),
  role: z.string(),
  status: z.string(),
  createdAt: z.string().nullable(),
});

export const flagStateSchema = z.object({
  name: z.string(),
  enabled: z.boolean(),
  globalEnabled: z.boolean(),
  override: z.enum(["on", "off", ""]),
});

export const auditEntrySchema = z.object({
  id: z.string(),
  actorId: z.string(),
  actorEmail: z.string(),
  action: z.string(),
  targetUserId: z.string(),
  details: z.string(),
  at: z.string().nullable(),
});

export const dayStatsSchema = z.object({
  day: z.string(),
  signups: z.number().int(),
  crafts: z.number().int(),
  creditsGranted: z.number().int(),
  creditsSpent: z.number().int(),
  mrrCents: z.number().int(),
});

const userIdParams = z.object({ userId: z.string().min(1).max(64) });
const flagBody = z.object({
  flag: z.string().min(1).max(64),
  enabled: z.boolean({ error: "enabled must be true or false" }),
});

/** /api/admin: users, credit grants, feature flags, the audit log and usage (admins only; issue 14). */
export function adminRoutes({ clients }: RouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/admin/users",
      tag: "admin",
      summary: "Users by search (every word must equal an email part or a name word), newest first",
      auth: "session",
      query: z.object({ q: z.string().max(200).default(""), ...pageQuery }),
      response: paged(adminUserSchema),
      handler: async ({ req, query, as }) => {
        requireAdmin(req, "admin.users.read");
        const { users, count } = await clients.admin.listUsers(
          { query: query.q, page: query.page, pageSize: query.pageSize },
          as,
        );
        return {
          result: users.map((user) => ({
            userId: user.userId,
            email: user.email,
            displayName: user.displayName,
            role: user.role,
            status: user.status,
            createdAt: iso(user.createdAt),
          })),
          meta: metaOf(count, query.page, query.pageSize),
        };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/admin/users/{userId}/credits",
      tag: "admin",
      summary: "Grant credits through billing's ledger (audited; idempotent by idempotencyKey)",
      auth: "session",
      params: userIdParams,
      body: z.object({
        amount: z.number({ error: "Amount must be a number" }).int("Whole credits only").min(1).max(100_000),
        reason: z.string({ error: "Say why" }).trim().min(1, "Say why").max(200),
        idempotencyKey: z.string().min(8).max(200),
      }),
      response: z.object({ balance: z.number().int(), granted: z.boolean() }),
      errors: ["NOT_FOUND"],
      handler: async ({ req, params, body, as }) => {
        requireAdmin(req, "admin.credits.grant");
        return clients.admin.grantCredits({ targetUserId: params.userId, ...body }, as);
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/admin/flags",
      tag: "admin",
      summary: "Every flag's global default",
      auth: "session",
      response: z.object({ flags: z.array(flagStateSchema) }),
      handler: async ({ req, as }) => {
        requireAdmin(req, "admin.flags.write");
        const { flags } = await clients.admin.getFlags({ targetUserId: "" }, as);
        return { flags: flags.map(toFlagState) };
      },
    }),
    defineRoute({
      method: "put",
      path: "/api/admin/flags",
      tag: "admin",
      summary: "Turn a flag on or off for everyone (audited)",
      auth: "session",
      body: flagBody,
      response: z.object({}),
      errors: ["NOT_FOUND"],
      handler: async ({ req, body, as }) => {
        requireAdmin(req, "admin.flags.write");
        await clients.admin.setFlag({ targetUserId: "", ...body }, as);
        return {};
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/admin/users/{userId}/flags",
      tag: "admin",
      summary: "One user's flags as they resolve, with the user's overrides",
      auth: "session",
      params: userIdParams,
      response: z.object({ flags: z.array(flagStateSchema) }),
      handler: async ({ req, params, as }) => {
        requireAdmin(req, "admin.flags.write");
        const { flags } = await clients.admin.getFlags({ targetUserId: params.userId }, as);
        return { flags: flags.map(toFlagState) };
      },
    }),
    defineRoute({
      method: "put",
      path: "/api/admin/users/{userId}/flags",
      tag: "admin",
      summary: "Turn a flag on or off for one user (audited)",
      auth: "session",
      params: userIdParams,
      body: flagBody,
      response: z.object({}),
      errors: ["NOT_FOUND"],
      handler: async ({ req, params, body, as }) => {
        requireAdmin(req, "admin.flags.write");
        await clients.admin.setFlag({ targetUserId: params.userId, ...body }, as);
        return {};
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/admin/audit",
      tag: "admin",
      summary: "The audit log of admin actions, newest first (append-only)",
      auth: "session",
      query: z.object(pageQuery),
      response: paged(auditEntrySchema),
      handler: async ({ req, query, as }) => {
        requireAdmin(req, "admin.audit.read");
        const { entries, count } = await clients.admin.listAudit({ page: query.page, pageSize: query.pageSize }, as);
        return {
          result: entries.map((entry) => ({
            id: entry.id,
            actorId: entry.actorId,
            actorEmail: entry.actorEmail,
            action: entry.action,
            targetUserId: entry.targetUserId,
            details: entry.details,
            at: iso(entry.at),
          })),
          meta: metaOf(count, query.page, query.pageSize),
        };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/admin/stats",
      tag: "admin",
      summary: "Sign-ups, crafts, credits and MRR per UTC day over the last `days`",
      auth: "session",
      query: z.object({ days: z.coerce.number().int().min(1).max(365).default(30) }),
      response: z.object({ days: z.array(dayStatsSchema), totalUsers: z.number().int() }),
      handler: async ({ req, query, as }) => {
        requireAdmin(req, "admin.stats.read");
        const stats = await clients.admin.getStats({ days: query.days }, as);
        return {
          days: stats.days.map((day) => ({
            day: day.day,
            signups: day.signups,
            crafts: day.crafts,
            creditsGranted: day.creditsGranted,
            creditsSpent: day.creditsSpent,
            mrrCents: Number(day.mrrCents),
          })),
          totalUsers: stats.totalUsers,
        };
      },
    }),
  ];
}

function toFlagState(flag: {
  name: string;
  enabled: boolean;
  globalEnabled: boolean;
  override: string;
}): z.infer<typeof flagStateSchema> {
  return {
    name: flag.name,
    enabled: flag.enabled,
    globalEnabled: flag.globalEnabled,
    override: flag.override === "on" || flag.override === "off" ? flag.override : "",
  };
}
