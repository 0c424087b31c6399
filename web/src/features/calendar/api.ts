import useSWR, { useSWRConfig } from "swr";
import { api, fetcher } from "../../api/api";
import { useInitial } from "../../api/hooks/app";
import type { CalendarEntry } from "./calendar-logic";

/** A page of the list view (the spec's paged meta). */
export interface CalendarPage {
  result: CalendarEntry[];
  meta: { count: number; currentPage: number; totalPages: number };
}

export interface ListQuery {
  page: number;
  pageSize: number;
  type?: string;
  status?: string;
  order: "asc" | "desc";
}

/** Every calendar key starts with /api/calendar, so one write revalidates the views. */
const isCalendarKey = (key: unknown) => typeof key === "string" && key.startsWith("/api/calendar");

/** The active project's id, so switching projects gives other cache keys. */
function useProjectId(): string | undefined {
  return useInitial().data?.activeProjectInfo?.projectId || undefined;
}

/** `GET /api/calendar?from&to` for the range the calendar shows (null range: nothing asked yet). */
export function useCalendarRange(range: { from: Date; to: Date } | null) {
  const projectId = useProjectId();
  const params = range ? new URLSearchParams({ from: range.from.toISOString(), to: range.to.toISOString() }) : null;
  if (params && projectId) params.set("projectId", projectId);
  return useSWR<CalendarEntry[]>(params ? `/api/calendar?${params}` : null, fetcher, { keepPreviousData: true });
}

/** `GET /api/calendar/list`. */
export function useCalendarList(query: ListQuery) {
  const projectId = useProjectId();
  const params = new URLSearchParams({
    page: String(query.page),
    pageSize: String(query.pageSize),
    sort: "date_time",
    order: query.order,
  });
  if (query.type) params.set("type", query.type);
  if (query.status) params.set("status", query.status);
  if (projectId) params.set("projectId", projectId);
  return useSWR<CalendarPage>(`/api/calendar/list?${params}`, fetcher, { keepPreviousData: true });
}

/** The calendar's writes; each revalidates every calendar view. */
export function useCalendarWrites() {
  const { mutate } = useSWRConfig();
  const refresh = () => mutate(isCalendarKey);
  return {
    /** `POST /api/calendar`: schedules a craft (or moves it when already scheduled). */
    async schedule(craftId: string, dateTime: string): Promise<CalendarEntry> {
      const entry = await api.post<CalendarEntry>("/api/calendar", { craftId, dateTime });
      await refresh();
      return entry;
    },
    /** `PATCH /api/calendar/:id`: the drag. */
    async move(id: string, dateTime: string): Promise<CalendarEntry> {
      const entry = await api.request<CalendarEntry>("PATCH", `/api/calendar/${encodeURIComponent(id)}`, {
        body: { dateTime },
      });
      await refresh();
      return entry;
    },
    /** `DELETE /api/calendar/:id`. */
    async unschedule(id: string): Promise<void> {
      await api.del(`/api/calendar/${encodeURIComponent(id)}`);
      await refresh();
    },
    refresh,
  };
}
