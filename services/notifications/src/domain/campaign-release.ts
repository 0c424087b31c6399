/**
 * When each recipient of a scheduled campaign gets it: at the business's time (everyone at the
 * scheduled instant), or at each contact's local time (the scheduled wall-clock time in the
 * contact's own time zone; the business's zone for a contact without one). Pure; the zone
 * arithmetic, daylight-saving changes included, is @crafter/time's.
 */
import { canonicalTimeZone, earliestWallClockAnywhere, sameWallClockIn, zoneOrUtc } from "@crafter/time";

/** Whose wall clock a scheduled campaign's time is read on. */
export type SendTimeBy = "business" | "contact";

export const SEND_TIME_BY: readonly SendTimeBy[] = ["business", "contact"];

/** Why a campaign at each contact's local time cannot also be an A/B test. */
export const LOCAL_TIME_WITH_AB_TEST =
  "An A/B test needs one send window to pick its winner: send at the business's time, or remove the A/B test";

/** Why "Send now" refuses a campaign at each contact's local time. */
export const LOCAL_TIME_SEND_NOW =
  "A campaign at each contact's local time is scheduled: choose a date and time, or send at the business's time";

/**
 * The instant the dispatcher starts a scheduled campaign: the scheduled instant for the business's
 * time; for each contact's local time, the earliest instant any time zone's wall clock reads the
 * scheduled time (UTC+14 is first), so no contact's release comes before the campaign starts.
 * @param scheduledAt the scheduled instant, as the business's wall clock reads it in `businessZone`.
 */
export function startOfSending(scheduledAt: Date, businessZone: string, sendTimeBy: SendTimeBy): Date {
  return sendTimeBy === "contact" ? earliestWallClockAnywhere(scheduledAt, zoneOrUtc(businessZone)) : scheduledAt;
}

/**
 * The instant a contact's email is released: the wall-clock time the business's zone reads at
 * `scheduledAt`, in the contact's own zone (`contactZone`; "" or an unknown name: the business's,
 * so `scheduledAt` itself). A wall-clock time the contact's zone skips (a daylight-saving gap)
 * moves forward by the gap.
 */
export function releaseAtFor(scheduledAt: Date, businessZone: string, contactZone: string | undefined): Date {
  const business = zoneOrUtc(businessZone);
  return sameWallClockIn(scheduledAt, business, canonicalTimeZone(contactZone) ?? business);
}

/**
 * `releaseAtFor` of one campaign, remembered per zone: a segment of many thousand contacts has a
 * few dozen zones, and each instant costs a time-zone conversion.
 */
export function releasesOf(scheduledAt: Date, businessZone: string): (contactZone: string | undefined) => Date {
  const known = new Map<string, Date>();
  return (contactZone) => {
    const key = contactZone ?? "";
    let release = known.get(key);
    if (!release) {
      release = releaseAtFor(scheduledAt, businessZone, key);
      known.set(key, release);
    }
    return release;
  };
}

/** Whether a delivery may be sent at `now`: it has no release instant, or that instant has come. */
export function isReleased(delivery: { releaseAt?: Date | null }, now: Date): boolean {
  return !delivery.releaseAt || new Date(delivery.releaseAt).getTime() <= now.getTime();
}

/** How far a campaign at each contact's local time has come. */
export interface ReleaseProgress {
  /** Deliveries whose release instant has come (or that have none). */
  released: number;
  /** Every delivery of the campaign. */
  total: number;
  /** The next release instant after `now`; null when every delivery is released. */
  nextAt: Date | null;
}

/** The release progress of a campaign's deliveries at `now`. */
export function releaseProgress(deliveries: ReadonlyArray<{ releaseAt?: Date | null }>, now: Date): ReleaseProgress {
  let released = 0;
  let next = Number.POSITIVE_INFINITY;
  for (const delivery of deliveries) {
    if (isReleased(delivery, now)) released++;
    else next = Math.min(next, new Date(delivery.releaseAt!).getTime());
  }
  return { released, total: deliveries.length, nextAt: Number.isFinite(next) ? new Date(next) : null };
}
