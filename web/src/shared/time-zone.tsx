import { canonicalTimeZone, timeZones, UTC, zoneLabel } from "@crafter/time";
import { Alert, Select } from "antd";
import { useMemo } from "react";
import { useInitial } from "../api/hooks/app";
import { LinkButton } from "./LinkButton";

/** Where the business's time zone is set. */
export const TIME_ZONE_SETTING = "/app/business/profile";

/**
 * The active project's business time zone (its business profile's `timeZone`): `zone` is UTC when
 * none is set (`isSet` false), as for projects made before time zones. `ready` is false while the
 * initial state loads.
 */
export function useBusinessTimeZone(): { zone: string; isSet: boolean; ready: boolean } {
  const { data } = useInitial();
  const raw = data?.activeProjectInfo?.profile?.fields?.timeZone;
  const zone = canonicalTimeZone(raw);
  return { zone: zone ?? UTC, isSet: zone !== null, ready: data !== undefined };
}

/** A searchable list of every IANA time zone the browser knows, labelled with today's offset. */
export function TimeZoneSelect({
  id,
  value,
  onChange,
  onBlur,
  status,
  testId,
  allowClear,
  placeholder = "Choose a time zone",
}: {
  id?: string;
  value: string;
  onChange: (zone: string) => void;
  onBlur?: () => void;
  status?: "error";
  testId?: string;
  /** Offers to clear the choice (onChange gets ""). */
  allowClear?: boolean;
  placeholder?: string;
}) {
  const options = useMemo(() => {
    const now = new Date();
    return timeZones().map((zone) => ({ value: zone, label: zoneLabel(zone, now) }));
  }, []);
  return (
    <Select
      id={id}
      showSearch={{ optionFilterProp: "label" }}
      value={value || undefined}
      onChange={(zone?: string) => onChange(zone ?? "")}
      onBlur={onBlur}
      options={options}
      allowClear={allowClear}
      placeholder={placeholder}
      status={status}
      style={{ width: "100%" }}
      data-testid={testId}
      aria-label="Time zone"
    />
  );
}

/**
 * The notice shown where times are shown or picked while the business has no time zone: they are
 * UTC until one is set.
 */
export function TimeZoneNotice({ testId = "time-zone-unset" }: { testId?: string }) {
  const { isSet, ready } = useBusinessTimeZone();
  if (!ready || isSet) return null;
  return (
    <Alert
      type="info"
      showIcon
      data-testid={testId}
      title="Times are in UTC until you set your business's time zone"
      description="Schedules, the calendar, automation waits and birthday emails follow your business's time zone."
      action={
        <LinkButton size="small" to={TIME_ZONE_SETTING}>
          Set time zone
        </LinkButton>
      }
    />
  );
}
