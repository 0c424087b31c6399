import useSWR, { useSWRConfig } from "swr";
import { api, fetcher } from "../../api/api";

/** docs/email-contract.md `Notification`. */
export interface InboxNotification {
  id: string;
  level: "info" | "warning" | "success" | "error";
  title: string;
  body: string;
  link?: string;
  read: boolean;
  createdAt: string;
}

export interface InboxPage {
  result: InboxNotification[];
  meta: { count: number; currentPage: number; totalPages: number; unread: number };
}

/** The bell's list: the newest ten. */
export const INBOX_KEY = "/api/notifications?page=1&pageSize=10";
const isInboxKey = (key: unknown) => typeof key === "string" && key.startsWith("/api/notifications");

/** Polled every minute and on focus, so due posts and finished campaigns appear without a reload. */
export function useInbox() {
  return useSWR<InboxPage>(INBOX_KEY, fetcher, { refreshInterval: 60_000, revalidateOnFocus: true });
}

export function useInboxWrites() {
  const { mutate } = useSWRConfig();
  return {
    async markRead(id: string): Promise<void> {
      await api.post(`/api/notifications/${encodeURIComponent(id)}/read`, {});
      await mutate(isInboxKey);
    },
    async markAllRead(): Promise<void> {
      await api.post("/api/notifications/read-all", {});
      await mutate(isInboxKey);
    },
  };
}
