import useSWR, { useSWRConfig } from "swr";
import { apiKey, fetcher, http } from "../api";
import type { ResultOf, Schema } from "../contract";

/** The in-app notifications (the bell), typed by the gateway's OpenAPI document. */

export type InboxNotification = Schema<"Notification">;
export type InboxPage = ResultOf<"/api/notifications", "get">;

/** The bell's list: the newest ten. */
export const INBOX_KEY = apiKey("/api/notifications", { query: { page: 1, pageSize: 10 } });
const isInboxKey = (key: unknown) => typeof key === "string" && key.startsWith(apiKey("/api/notifications"));

/** Polled every minute and on focus, so due posts and finished campaigns appear without a reload. */
export function useInbox() {
  return useSWR<InboxPage>(INBOX_KEY, fetcher, { refreshInterval: 60_000, revalidateOnFocus: true });
}

export function useInboxWrites() {
  const { mutate } = useSWRConfig();
  return {
    async markRead(id: string): Promise<void> {
      await http.post("/api/notifications/{id}/read", { path: { id }, body: {} });
      await mutate(isInboxKey);
    },
    async markAllRead(): Promise<void> {
      await http.post("/api/notifications/read-all", { body: {} });
      await mutate(isInboxKey);
    },
  };
}
