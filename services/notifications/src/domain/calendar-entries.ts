// Pure rules of the content calendar: entry types from workflows, UTC days, ranges, the due
// notification's grouping and wording.

export const CALENDAR_TYPES = ["email", "social", "blog", "other"] as const;
export type CalendarType = (typeof CALENDAR_TYPES)[number];

export const CALENDAR_STATUSES = ["scheduled", "due", "sending", "sent", "published", "failed"] as const;
export type CalendarStatus = (typeof CALENDAR_STATUSES)[number];

/** The longest range `GET /api/calendar` answers (docs/email-contract.md "Calendar"). */
export const MAX_RANGE_DAYS = 62;
const DAY_MS = 86_400_000;

/**
 * The calendar type of a craft from its workflow's name, in either spelling the spec uses
 * ("EmailWriter" or "email-writer"): emails, social posts, blog posts, everything else "other".
 */
export function typeOfWorkflow(workflowName: string): CalendarType {
  const name = workflowName.toLowerCase().replace(/[^a-z]/g, "");
  if (name === "emailwriter") return "email";
  if (name === "socialmediapostwriter") return "social";
  if (name === "blogwriter") return "blog";
  return "other";
}

/** Whether entries of this type turn `due` at their time (until publishing integrations exist). */
export function turnsDue(type: CalendarType): boolean {
  return type !== "email";
}

/** The UTC day of a time, "YYYY-MM-DD". */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Every UTC day from `from`'s to `to`'s, both included ("YYYY-MM-DD"; empty when `to` is earlier). */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/**
 * Checks a calendar range: both times valid, `from` before `to`, at most 62 days apart.
 * @returns null when fine, else the message for the field at fault.
 */
export function rangeProblem(from: Date, to: Date): { field: "from" | "to"; message: string } | null {
  if (Number.isNaN(from.getTime())) return { field: "from", message: "from must be a date" };
  if (Number.isNaN(to.getTime())) return { field: "to", message: "to must be a date" };
  if (to.getTime() <= from.getTime()) return { field: "to", message: "to must be after from" };
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS)
    return { field: "to", message: `The range is at most ${MAX_RANGE_DAYS} days` };
  return null;
}

/** The app path of a craft's page (web/src/features/crafts/links.ts craftHref). */
export function craftLink(workflowName: string, craftId: string): string {
  return `/app/crafts/${encodeURIComponent(workflowName)}?craftId=${encodeURIComponent(craftId)}`;
}

/** The app path of a campaign's page (the email area's). */
export function campaignLink(campaignId: string): string {
  return `/app/email/campaigns/${encodeURIComponent(campaignId)}`;
}

/** The calendar's own page for a day (where the due notification links). */
export function calendarDayLink(day: string): string {
  return `/app/calendar?date=${day}`;
}

/** "1 post is due today", "3 posts are due today". */
export function dueTitle(count: number): string {
  return count === 1 ? "1 post is due today" : `${count} posts are due today`;
}

/** The idempotency key of a user's due notification for a day: one per user per day. */
export function dueKey(userId: string, day: string): string {
  return `calendar-due:${userId}:${day}`;
}

/**
 * The (user, day) pairs among entries that just turned due, each once, in first-seen order: one
 * notification per user per day however many of their entries turned due in one scan.
 */
export function dueGroups(
  entries: ReadonlyArray<{ userId: string; day: string }>,
): Array<{ userId: string; day: string }> {
  const seen = new Set<string>();
  const groups: Array<{ userId: string; day: string }> = [];
  for (const { userId, day } of entries) {
    const key = `${userId}\0${day}`;
    if (seen.has(key)) continue;
    seen.add(key);
    groups.push({ userId, day });
  }
  return groups;
}

/** The status a finished campaign's entry shows: failed when nothing went out and something failed. */
export function finishedStatus(sent: number, failed: number): CalendarStatus {
  return sent === 0 && failed > 0 ? "failed" : "sent";
}

/** The calendar status of an email campaign's status (docs/email-contract.md `Campaign.status`). */
export function statusOfCampaign(status: string): CalendarStatus {
  switch (status) {
    case "sending":
    case "paused":
      return "sending";
    case "sent":
      return "sent";
    case "failed":
      return "failed";
    default:
      return "scheduled";
  }
}
