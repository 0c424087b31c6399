/** The gateway paths and shapes of /app/admin (issue 14). */
export const adminPaths = {
  users: (q: string, page: number) => `/api/admin/users?${new URLSearchParams({ q, page: String(page) }).toString()}`,
  credits: (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}/credits`,
  userFlags: (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}/flags`,
  flags: "/api/admin/flags",
  audit: (page: number) => `/api/admin/audit?page=${page}`,
  stats: (days: number) => `/api/admin/stats?days=${days}`,
} as const;

export type { Page as Paged } from "../../api/contract";

export interface AdminUser {
  userId: string;
  email: string;
  displayName: string;
  role: string;
  status: string;
  createdAt: string | null;
}

export interface FlagState {
  name: string;
  enabled: boolean;
  globalEnabled: boolean;
  override: "on" | "off" | "";
}

export interface AuditEntry {
  id: string;
  actorId: string;
  actorEmail: string;
  action: string;
  targetUserId: string;
  details: string;
  at: string | null;
}

export interface DayStats {
  day: string;
  signups: number;
  crafts: number;
  creditsGranted: number;
  creditsSpent: number;
  mrrCents: number;
}
