import { randomUUID } from "node:crypto";
import { appError, badRequest, type Caller } from "@crafter/kit";
import { can, type Permission } from "@crafter/roles";
import type { AccountDeps } from "../deps";
import { FLAG_NAMES, resolveFlags } from "../domain/flags";
import { queryTokens } from "../domain/search-tokens";
import { type DayRow, dailySeries, windowStart } from "../domain/stats";
import type { Account } from "../store/account.repository";
import type { AuditDoc } from "../store/audit.repository";

/**
 * /app/admin. Each use case checks the caller's role against @crafter/roles first
 * (the gateway checks too), and each change is appended to the audit log before it is made, so a
 * change that happened is always logged (a logged change that then failed says so in its details
 * only when the caller retries; the retry's key finds the same entry).
 */

/** Refuses a caller whose role may not do `permission`. @throws FORBIDDEN */
export function requirePermission(caller: Caller, permission: Permission): void {
  if (!can(caller.role, permission)) throw appError("FORBIDDEN", "Only admins can do this.");
}

const pageOf = (page: number, pageSize: number, max = 100) => ({
  page: Math.max(1, page || 1),
  pageSize: Math.min(max, Math.max(1, pageSize || 20)),
});

export interface AdminUserView {
  userId: string;
  email: string;
  displayName: string;
  role: string;
  status: "active" | "unverified";
  createdAt: Date;
}

function toAdminUser(account: Account): AdminUserView {
  return {
    userId: account.userId,
    email: account.email,
    displayName: account.displayName,
    role: account.role,
    status: account.emailVerified ? "active" : "unverified",
    createdAt: new Date(account.createdAt),
  };
}

/** Users matching every word of `query` (token equality), newest first. */
export async function listUsers(
  deps: AccountDeps,
  caller: Caller,
  input: { query: string; page: number; pageSize: number },
): Promise<{ users: AdminUserView[]; count: number }> {
  requirePermission(caller, "admin.users.read");
  const { page, pageSize } = pageOf(input.page, input.pageSize);
  const { accounts, count } = await deps.stores.directory.search(queryTokens(input.query), page, pageSize);
  return { users: accounts.map(toAdminUser), count };
}

export const MAX_ADMIN_GRANT = 100_000;

/**
 * Grants credits through billing's ledger, audited first under the grant's key (a retry logs once
 * and grants once).
 * @throws FORBIDDEN; CR_ERR_BAD_REQUEST (amount, reason, key); NOT_FOUND (no such user).
 */
export async function grantCredits(
  deps: AccountDeps,
  caller: Caller & { email?: string },
  input: { targetUserId: string; amount: number; reason: string; idempotencyKey: string },
): Promise<{ balance: number; granted: boolean }> {
  requirePermission(caller, "admin.credits.grant");
  const fields: Record<string, string> = {};
  if (!Number.isInteger(input.amount) || input.amount < 1 || input.amount > MAX_ADMIN_GRANT) {
    fields.amount = `Grant 1 to ${MAX_ADMIN_GRANT.toLocaleString("en-US")} credits`;
  }
  const reason = input.reason.trim();
  if (!reason || reason.length > 200) fields.reason = "Say why, in at most 200 characters";
  if (input.idempotencyKey.length < 8 || input.idempotencyKey.length > 200) {
    fields.idempotencyKey = "The key must be 8 to 200 characters";
  }
  if (Object.keys(fields).length > 0) throw badRequest(fields);
  if (!input.targetUserId || !(await deps.stores.directory.exists(input.targetUserId))) {
    throw appError("NOT_FOUND", "No such user.");
  }
  await deps.stores.audit.append(
    {
      id: `credits.grant:${caller.userId}:${input.idempotencyKey}`,
      actorId: caller.userId,
      actorEmail: caller.email ?? "",
      action: "credits.grant",
      targetUserId: input.targetUserId,
      details: JSON.stringify({ amount: input.amount, reason }),
    },
    deps.now(),
  );
  return deps.grants.grant({
    userId: input.targetUserId,
    amount: input.amount,
    reason,
    idempotencyKey: `${caller.userId}:${input.idempotencyKey}`,
    grantedBy: caller.userId,
  });
}

export interface FlagStateView {
  name: string;
  enabled: boolean;
  globalEnabled: boolean;
  override: "on" | "off" | "";
}

/** Every flag for one user (resolved, with the user's overrides) or the global defaults. */
export async function getFlagStates(
  deps: AccountDeps,
  caller: Caller,
  input: { targetUserId: string },
): Promise<FlagStateView[]> {
  requirePermission(caller, "admin.flags.write");
  const globals = await deps.stores.flags.all();
  const overrides = input.targetUserId ? await deps.stores.flagOverrides.listForUser(input.targetUserId) : [];
  const resolved = new Set(resolveFlags(globals, overrides).enabledFeatures);
  const own = new Map(overrides.map((override) => [override.flag, override.enabled]));
  return globals
    .map((flag) => {
      const override = own.get(flag.name);
      return {
        name: flag.name,
        enabled: resolved.has(flag.name),
        globalEnabled: flag.enabled,
        override: override === undefined ? ("" as const) : override ? ("on" as const) : ("off" as const),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Turns a flag on or off for one user, or for everyone when `targetUserId` is empty; audited.
 * @throws FORBIDDEN; NOT_FOUND (unknown flag or user).
 */
export async function setFlag(
  deps: AccountDeps,
  caller: Caller & { email?: string },
  input: { targetUserId: string; flag: string; enabled: boolean },
): Promise<void> {
  requirePermission(caller, "admin.flags.write");
  if (!(FLAG_NAMES as readonly string[]).includes(input.flag)) throw appError("NOT_FOUND", "No such flag.");
  if (input.targetUserId && !(await deps.stores.directory.exists(input.targetUserId))) {
    throw appError("NOT_FOUND", "No such user.");
  }
  await deps.stores.audit.append(
    {
      id: randomUUID(),
      actorId: caller.userId,
      actorEmail: caller.email ?? "",
      action: input.targetUserId ? "flag.set" : "flag.set_global",
      targetUserId: input.targetUserId,
      details: JSON.stringify({ flag: input.flag, enabled: input.enabled }),
    },
    deps.now(),
  );
  if (input.targetUserId) {
    await deps.stores.flagOverrides.set(input.targetUserId, input.flag, input.enabled);
    await deps.changed(input.targetUserId);
  } else if (!(await deps.stores.flags.setGlobal(input.flag, input.enabled)))
    throw appError("NOT_FOUND", "No such flag.");
}

/** The audit log, newest first. */
export async function listAudit(
  deps: AccountDeps,
  caller: Caller,
  input: { page: number; pageSize: number },
): Promise<{ entries: AuditDoc[]; count: number }> {
  requirePermission(caller, "admin.audit.read");
  const { page, pageSize } = pageOf(input.page, input.pageSize);
  return deps.stores.audit.page(page, pageSize);
}

/**
 * Sign-ups (accounts), crafts and credits (facts from workflows' and billing's events) per UTC day
 * over the last `days` (1 to 365, default 30), MRR at each day's end (US cents, billing's
 * subscriptions), and the number of users.
 */
export async function getStats(
  deps: AccountDeps,
  caller: Caller,
  input: { days: number },
): Promise<{ days: (DayRow & { mrrCents: number })[]; totalUsers: number }> {
  requirePermission(caller, "admin.stats.read");
  const days = Math.min(365, Math.max(1, input.days || 30));
  const now = deps.now();
  const start = windowStart(now, days);
  const [signups, facts, totalUsers] = await Promise.all([
    deps.stores.directory.createdSince(start),
    deps.stores.stats.since(start),
    deps.stores.directory.count(),
  ]);
  const series = dailySeries(now, days, signups, facts);
  const mrr = await deps.grants.revenue(series.map((row) => row.day));
  return { days: series.map((row) => ({ ...row, mrrCents: mrr.get(row.day) ?? 0 })), totalUsers };
}
