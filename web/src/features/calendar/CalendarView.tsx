import { formatIn, zoneLabel } from "@crafter/time";
import type { DatesSetArg, EventClickArg, EventDropArg, EventInput } from "@fullcalendar/core";
import dayGridPlugin from "@fullcalendar/daygrid";
import interactionPlugin from "@fullcalendar/interaction";
import FullCalendar from "@fullcalendar/react";
import timeGridPlugin from "@fullcalendar/timegrid";
import { Flex, Spin, Tag } from "antd";
import { useMemo, useState } from "react";
import { useNavigate } from "react-router-dom";
import { notify } from "../../shared/notify";
import { ErrorState } from "../../shared/states";
import { TimeZoneNotice, useBusinessTimeZone } from "../../shared/time-zone";
import { useCalendarRange, useCalendarWrites } from "./api";
import { type CalendarEntry, canMove, fromCalendarTime, TYPE_STYLE, toCalendarTime } from "./calendar-logic";

/**
 * The month and week calendar (FullCalendar): entries coloured by type, drag to move (PATCH; the
 * entry goes back and an error toast shows when the move is refused), click to open. Days and
 * hours are the business's (its time zone), whatever the browser's zone.
 */
export function CalendarView({ initialDate }: { initialDate?: string }) {
  const navigate = useNavigate();
  const { zone } = useBusinessTimeZone();
  const [range, setRange] = useState<{ from: Date; to: Date } | null>(null);
  const { data, error, isLoading, mutate } = useCalendarRange(range);
  const writes = useCalendarWrites();

  const events = useMemo<EventInput[]>(
    () =>
      (data ?? []).map((entry) => ({
        id: entry.id,
        title: entry.title || TYPE_STYLE[entry.type].label,
        start: toCalendarTime(new Date(entry.dateTime), zone),
        allDay: false,
        editable: canMove(entry),
        backgroundColor: TYPE_STYLE[entry.type].color,
        borderColor: TYPE_STYLE[entry.type].color,
        textColor: "#fff",
        classNames: [`crafter-cal-${entry.type}`, `crafter-cal-status-${entry.status}`],
        extendedProps: { entry },
      })),
    [data, zone],
  );

  const onDrop = (info: EventDropArg) => {
    const entry = info.event.extendedProps.entry as CalendarEntry;
    if (!info.event.start) return info.revert();
    const start = fromCalendarTime(info.event.start, zone);
    writes
      .move(entry.id, start.toISOString())
      .then(() => notify.success("Moved", `${entry.title || "The entry"} is now on ${formatIn(start, zone)}.`))
      .catch((err) => {
        info.revert();
        notify.error(err, "Could not move it");
      });
  };

  const onClick = (info: EventClickArg) => {
    info.jsEvent.preventDefault();
    const entry = info.event.extendedProps.entry as CalendarEntry;
    if (entry.link.startsWith("/")) navigate(entry.link);
  };

  return (
    <Flex vertical gap={8} data-testid="calendar-view">
      <Flex gap={8} wrap align="center">
        {Object.entries(TYPE_STYLE).map(([type, style]) => (
          <Tag key={type} color={style.color}>
            {style.label}
          </Tag>
        ))}
        {isLoading && <Spin size="small" aria-label="Loading" />}
        <span
          style={{ marginInlineStart: "auto", color: "var(--ant-color-text-secondary)" }}
          data-testid="calendar-time-zone"
        >
          {zoneLabel(zone, new Date())}
        </span>
      </Flex>
      <TimeZoneNotice />
      {error && <ErrorState error={error} onRetry={() => mutate()} />}
      <div className="crafter-calendar">
        <FullCalendar
          plugins={[dayGridPlugin, timeGridPlugin, interactionPlugin]}
          timeZone="UTC"
          now={() => toCalendarTime(new Date(), zone)}
          initialView="dayGridMonth"
          initialDate={initialDate}
          headerToolbar={{ left: "prev,next today", center: "title", right: "dayGridMonth,timeGridWeek" }}
          buttonText={{ month: "Month", week: "Week", today: "Today" }}
          firstDay={1}
          height="auto"
          editable
          eventStartEditable
          eventDurationEditable={false}
          // Entries are moments: a minute long, so one at 23:30 does not spill into the next day's cell.
          defaultTimedEventDuration="00:01"
          dayMaxEvents={4}
          eventDisplay="block"
          events={events}
          datesSet={(arg: DatesSetArg) =>
            setRange({ from: fromCalendarTime(arg.start, zone), to: fromCalendarTime(arg.end, zone) })
          }
          eventDrop={onDrop}
          eventClick={onClick}
          eventDidMount={(info) => {
            info.el.setAttribute("data-testid", "calendar-event");
            info.el.setAttribute("data-entry-id", info.event.id);
            info.el.setAttribute("title", info.event.title);
          }}
        />
      </div>
      {!isLoading && !error && data && data.length === 0 && (
        <div data-testid="calendar-empty" style={{ color: "var(--ant-color-text-secondary)" }}>
          Nothing is scheduled in this range. Open a craft and choose "Schedule" to place it here.
        </div>
      )}
    </Flex>
  );
}
