import { Flex, Segmented, Typography } from "antd";
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { useSettings, useUpdateSettings } from "../../api/hooks/app";
import { CalendarView } from "./CalendarView";
import { initialMode } from "./calendar-logic";
import { ListView } from "./ListView";

/**
 * /app/calendar (flag content_calendar): the month and week calendar with drag, or the list view.
 * Phones open the list; the mode chosen on a wider screen is saved as `contentCalendarViewMode`.
 */
export default function CalendarPage() {
  const settings = useSettings();
  const updateSettings = useUpdateSettings();
  const [params] = useSearchParams();
  const date = params.get("date") ?? undefined;
  const [mode, setMode] = useState<"calendar" | "list">(() =>
    initialMode(settings.contentCalendarViewMode, typeof window === "undefined" ? 1280 : window.innerWidth),
  );

  const choose = (next: "calendar" | "list") => {
    setMode(next);
    if (window.innerWidth >= 576) void updateSettings({ contentCalendarViewMode: next }).catch(() => undefined);
  };

  return (
    <Flex vertical gap={16} data-testid="calendar-page">
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          Content calendar
        </Typography.Title>
        <Segmented
          value={mode}
          onChange={(value) => choose(value as "calendar" | "list")}
          options={[
            { value: "calendar", label: "Calendar" },
            { value: "list", label: "List" },
          ]}
          data-testid="calendar-mode"
        />
      </Flex>
      {mode === "calendar" ? <CalendarView initialDate={date} /> : <ListView />}
    </Flex>
  );
}
