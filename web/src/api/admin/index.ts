import useSWR from "swr";
import { apiKey, fetcher, http } from "../api";
import type { BodyOf, ResultOf } from "../contract";

/**
 * Reads and writes of /app/admin (the contract's "admin" section), typed by the gateway's OpenAPI
 * document. Keys are the URLs they are read from (`apiKey`).
 */

export type AdminUsers = ResultOf<"/api/admin/users", "get">;
export type AdminUser = AdminUsers["result"][number];
export type FlagList = ResultOf<"/api/admin/flags", "get">;
export type FlagState = FlagList["flags"][number];
export type AuditPage = ResultOf<"/api/admin/audit", "get">;
export type AuditEntry = AuditPage["result"][number];
export type Usage = ResultOf<"/api/admin/stats", "get">;
export type DayStats = Usage["days"][number];
export type CreditGrant = BodyOf<"/api/admin/users/{userId}/credits", "post">;

export const adminKeys = {
  users: (q: string, page: number) => apiKey("/api/admin/users", { query: { q, page } }),
  flags: () => apiKey("/api/admin/flags"),
  userFlags: (userId: string) => apiKey("/api/admin/users/{userId}/flags", { path: { userId } }),
  audit: (page: number) => apiKey("/api/admin/audit", { query: { page } }),
  stats: (days: number) => apiKey("/api/admin/stats", { query: { days } }),
};

export const useAdminUsers = (q: string, page: number) => useSWR<AdminUsers>(adminKeys.users(q, page), fetcher);
export const useAudit = (page: number) => useSWR<AuditPage>(adminKeys.audit(page), fetcher);
export const useUsage = (days: number) => useSWR<Usage>(adminKeys.stats(days), fetcher);

/** The global flags, or (`userId`) one user's with their overrides. */
export function useFlagList(userId?: string) {
  return useSWR<FlagList>(userId ? adminKeys.userFlags(userId) : adminKeys.flags(), fetcher);
}

/** Turns a flag on or off for everyone, or (`userId`) for one user; audited. */
export function setFlag(flag: string, enabled: boolean, userId?: string) {
  return userId
    ? http.put("/api/admin/users/{userId}/flags", { path: { userId }, body: { flag, enabled } })
    : http.put("/api/admin/flags", { body: { flag, enabled } });
}

/** Grants credits through billing's ledger; the grant's idempotency key makes a double click grant once. */
export function grantCredits(userId: string, grant: CreditGrant) {
  return http.post("/api/admin/users/{userId}/credits", { path: { userId }, body: grant });
}
