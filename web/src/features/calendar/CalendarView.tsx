import { ExclamationCircleFilled } from "@ant-design/icons";
import { formatIn, zoneLabel } from "@crafter/time";
import type { DatesSetArg, EventClickArg, EventDropArg, EventInput } from "@fullcalendar/core";
import dayGridPlugin from "@fullcalendar/daygrid";
import interactionPlugin from "@fullcalendar/interaction";
import FullCalendar from "@fullcalendar/react";
import timeGridPlugin from "@fullcalendar/timegrid";
import { Flex, Spin, Tag } from "antd";
import { useMemo, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useCalendarRange, useCalendarWrites } from "../../api/calendar";
import { notify } from "../../shared/notify";
import { ErrorState } from "../../shared/states";
import { TimeZoneNotice, useBusinessTimeZone } from "../../shared/time-zone";
import {
  type CalendarEntry,
  canMove,
  FAILED_COLOR,
  fromCalendarTime,
  hasFailedChannel,
  socialRefreshMs,
  TYPE_STYLE,
  toCalendarTime,
} from "./calendar-logic";
import { SocialChannelChips } from "./SocialChannelChips";
import { SocialPostPanel } from "./SocialPostPanel";

/**
 * The month and week calendar (FullCalendar): entries coloured by type, drag to move (PATCH; the
 * entry goes back and an error toast shows when the move is refused), click to open. A social
 * post shows a chip per channel with its state, stands out when a channel failed (colour, icon and
 * word), and opens its panel (links, reasons, Retry); the calendar polls while one is publishing.
 * Days and hours are the business's (its time zone), whatever the browser's zone.
 */
export function CalendarView({ initialDate }: { initialDate?: string }) {
  const navigate = useNavigate();
  const { zone } = useBusinessTimeZone();
  const [range, setRange] = useState<{ from: Date; to: Date } | null>(null);
  const { data, error, isLoading, mutate } = useCalendarRange(range, (entries) => socialRefreshMs(entries, new Date()));
  const writes = useCalendarWrites();
  const [openId, setOpenId] = useState<string | null>(null);
  const opened = (data ?? []).find((entry) => entry.id === openId) ?? null;

  const events = useMemo<EventInput[]>(
    () =>
      (data ?? []).map((entry) => {
        const failed = hasFailedChannel(entry);
        const color = failed ? FAILED_COLOR : TYPE_STYLE[entry.type].color;
        return {
          id: entry.id,
          title: entry.title || TYPE_STYLE[entry.type].label,
          start: toCalendarTime(new Date(entry.dateTime), zone),
          allDay: false,
          editable: canMove(entry),
          backgroundColor: color,
          borderColor: color,
          textColor: "#fff",
          classNames: [
            `crafter-cal-${entry.type}`,
            `crafter-cal-status-${entry.status}`,
            ...(failed ? ["crafter-cal-failed"] : []),
          ],
          extendedProps: { entry },
        };
      }),
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
    if (entry.type === "social" && entry.channels.length > 0) setOpenId(entry.id);
    else if (entry.link.startsWith("/")) navigate(entry.link);
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
          eventContent={(arg) => {
            const entry = arg.event.extendedProps.entry as CalendarEntry;
            const failed = hasFailedChannel(entry);
            return (
              <span
                className="crafter-cal-event"
                title={failed ? `Failed: ${arg.event.title}` : arg.event.title}
                data-status={entry.status}
              >
                {arg.timeText ? <span className="crafter-cal-time">{arg.timeText}</span> : null}
                {failed ? <ExclamationCircleFilled aria-hidden /> : null}
                <span className="crafter-cal-title">
                  {failed ? "Failed: " : ""}
                  {arg.event.title}
                </span>
                {entry.type === "social" ? <SocialChannelChips entry={entry} compact /> : null}
              </span>
            );
          }}
          eventDidMount={(info) => {
            info.el.setAttribute("data-testid", "calendar-event");
            info.el.setAttribute("data-entry-id", info.event.id);
          }}
        />
      </div>
      <SocialPostPanel entry={opened} zone={zone} onClose={() => setOpenId(null)} />
      {!isLoading && !error && data && data.length === 0 && (
        <div data-testid="calendar-empty" style={{ color: "var(--ant-color-text-secondary)" }}>
          Nothing is scheduled in this range. Open a craft and choose "Schedule" to place it here.
        </div>
      )}
    </Flex>
  );
}
