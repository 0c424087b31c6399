import useSWR, { useSWRConfig } from "swr";
import { apiKey, fetcher, http } from "../api";
import type { ResultOf, Schema } from "../contract";
import { useInitial } from "../hooks/app";

/**
 * Reads and writes of the contract's "calendar" section (the content calendar's entries, a social
 * post's state on each channel and its Retry), typed by the gateway's OpenAPI document. Every key
 * starts with `/api/calendar`, so one write revalidates both views.
 */

export type CalendarEntry = Schema<"CalendarEntry">;
export type CalendarChannelState = Schema<"SocialChannelState">;
export type CalendarListPage = ResultOf<"/api/calendar/list", "get">;

export interface ListQuery {
  page: number;
  pageSize: number;
  type?: CalendarEntry["type"];
  status?: CalendarEntry["status"];
  order: "asc" | "desc";
}

/** Whether an SWR key is one of the calendar's (the range's or the list's). */
export const isCalendarKey = (key: unknown) => typeof key === "string" && key.startsWith("/api/calendar");

/** The active project's id, so switching projects gives other cache keys. */
function useProjectId(): string | undefined {
  return useInitial().data?.activeProjectInfo?.projectId || undefined;
}

export const calendarKeys = {
  range: (from: Date, to: Date, projectId?: string) =>
    apiKey("/api/calendar", {
      query: { from: from.toISOString(), to: to.toISOString(), ...(projectId ? { projectId } : {}) },
    }),
  list: (query: ListQuery, projectId?: string) =>
    apiKey("/api/calendar/list", {
      query: {
        page: query.page,
        pageSize: query.pageSize,
        sort: "date_time",
        order: query.order,
        ...(query.type ? { type: query.type } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(projectId ? { projectId } : {}),
      },
    }),
};

/**
 * The entries of the range the calendar shows (null: nothing asked yet). `refreshMs` says, after
 * each answer, how soon to ask again (0: not until a write or a focus): the calendar polls only
 * while a social post is publishing or about to.
 */
export function useCalendarRange(
  range: { from: Date; to: Date } | null,
  refreshMs: (entries: CalendarEntry[] | undefined) => number = () => 0,
) {
  const projectId = useProjectId();
  return useSWR<CalendarEntry[]>(range ? calendarKeys.range(range.from, range.to, projectId) : null, fetcher, {
    keepPreviousData: true,
    refreshInterval: refreshMs,
  });
}

/** One page of the list view, polled like the range. */
export function useCalendarList(query: ListQuery, refreshMs: (page: CalendarListPage | undefined) => number = () => 0) {
  const projectId = useProjectId();
  return useSWR<CalendarListPage>(calendarKeys.list(query, projectId), fetcher, {
    keepPreviousData: true,
    refreshInterval: refreshMs,
  });
}

/** The calendar's writes; each revalidates every calendar view. */
export function useCalendarWrites() {
  const { mutate } = useSWRConfig();
  const refresh = () => mutate(isCalendarKey);
  return {
    /** Schedules a craft (or moves it when already scheduled). */
    async schedule(craftId: string, dateTime: string): Promise<CalendarEntry> {
      const entry = await http.post("/api/calendar", { body: { craftId, dateTime } });
      await refresh();
      return entry;
    },
    /** The drag. @throws CONFLICT (a sent campaign, a social post a channel has started publishing). */
    async move(id: string, dateTime: string): Promise<CalendarEntry> {
      const entry = await http.patch("/api/calendar/{id}", { path: { id }, body: { dateTime } });
      await refresh();
      return entry;
    },
    async unschedule(id: string): Promise<void> {
      await http.del("/api/calendar/{id}", { path: { id } });
      await refresh();
    },
    /** Tries a failed channel of a social post again. @throws CONFLICT (it has not failed). */
    async retry(postId: string, channelId: string): Promise<void> {
      await http.post("/api/social/posts/{id}/retry", { path: { id: postId }, body: { channelId } });
      await refresh();
    },
    refresh,
  };
}
