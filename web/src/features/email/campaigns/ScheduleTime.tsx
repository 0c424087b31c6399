import { formatIn, instantAt, wallClockIn, zoneLabel } from "@crafter/time";
import { Input, Space, Typography } from "antd";
import { useBusinessTimeZone } from "../../../shared/time-zone";

/** A campaign's send time as the `datetime-local` value on the business's wall clock ("" for none). */
export function scheduleInputOf(scheduledAt: string | null | undefined, zone: string): string {
  if (!scheduledAt) return "";
  const at = new Date(scheduledAt);
  return Number.isNaN(at.getTime()) ? "" : wallClockIn(at, zone).slice(0, 16);
}

/** Whether a wall-clock value names a time after `now` in `zone`. */
export function isFutureIn(value: string, zone: string, now = new Date()): boolean {
  const at = instantAt(value, zone);
  return at !== null && at.getTime() > now.getTime();
}

/** A campaign time as people read it, on the business's wall clock. */
export function useCampaignTime(): (iso: string | null | undefined, withYear?: boolean) => string {
  const { zone } = useBusinessTimeZone();
  return (iso, withYear = true) =>
    iso ? formatIn(new Date(iso), zone, withYear ? "d MMM yyyy HH:mm" : "d MMM HH:mm") : "—";
}

/**
 * "Schedule for": a date and time picked on the business's wall clock (its time zone, shown beside
 * it), whatever the browser's zone; the server turns it into the instant.
 */
export function ScheduleTimeInput({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { zone } = useBusinessTimeZone();
  return (
    <Space.Compact>
      <Input
        type="datetime-local"
        aria-label="Schedule for"
        value={value}
        min={wallClockIn(new Date(), zone).slice(0, 16)}
        onChange={(e) => onChange(e.target.value)}
        data-testid="campaign-schedule-at"
        style={{ width: 210 }}
      />
      <Typography.Text
        type="secondary"
        style={{ alignSelf: "center", paddingInline: 8 }}
        data-testid="campaign-schedule-zone"
      >
        {zoneLabel(zone, value ? (instantAt(value, zone) ?? new Date()) : new Date())}
      </Typography.Text>
    </Space.Compact>
  );
}
