import type { NotificationsDeps } from "../deps";
import { campaignLink, dayOf, finishedStatus } from "../domain/calendar-entries";
import { calendarEntryIdOf, type EntryFields } from "../store/calendar.repository";
import { notify } from "./inbox";

type Deps = Pick<NotificationsDeps, "stores" | "calendar" | "now" | "logger">;

function campaignFields(
  e: { userId: string; projectId: string; campaignId: string; name: string },
  at: Date,
  status: EntryFields["status"],
): EntryFields {
  return {
    userId: e.userId,
    projectId: e.projectId,
    source: "campaign",
    craftId: "",
    campaignId: e.campaignId,
    title: e.name,
    type: "email",
    status,
    dateTime: at,
    day: dayOf(at),
    pending: false,
    workflowName: "",
    link: campaignLink(e.campaignId),
  };
}

/**
 * CampaignScheduled (topic notifications.email.v1): the campaign's entry goes to its time, or off
 * the calendar when `at` is empty (unscheduled). Redelivery writes the same entry again.
 */
export async function onCampaignScheduled(
  deps: Deps,
  event: { userId: string; projectId: string; campaignId: string; name: string; at: string },
): Promise<void> {
  const id = calendarEntryIdOf("campaign", event.userId, event.campaignId);
  const at = new Date(event.at);
  if (event.at === "" || Number.isNaN(at.getTime())) {
    await deps.stores.calendar.remove(id);
    return;
  }
  await deps.stores.calendar.put(id, campaignFields(event, at, "scheduled"));
}

/**
 * CampaignFinished: the campaign's entry shows it sent (or failed when nothing went out), and its
 * owner gets "Campaign X finished" once (keyed by the campaign). A campaign sent at once, never
 * scheduled, gets its entry at the time it finished.
 */
export async function onCampaignFinished(
  deps: Deps,
  event: {
    userId: string;
    projectId: string;
    campaignId: string;
    name: string;
    sent: number;
    failed: number;
    skipped: number;
  },
): Promise<void> {
  const id = calendarEntryIdOf("campaign", event.userId, event.campaignId);
  const status = finishedStatus(event.sent, event.failed);
  const existing = await deps.stores.calendar.byId(id);
  if (existing) await deps.stores.calendar.set(id, { status, title: event.name || existing.title });
  else await deps.stores.calendar.put(id, campaignFields(event, deps.now(), status));
  await notify(deps, {
    userId: event.userId,
    level: event.failed > 0 ? "warning" : "success",
    title: `Campaign ${event.name || "without a name"} finished`,
    body: `${event.sent} sent, ${event.failed} failed, ${event.skipped} skipped.`,
    link: campaignLink(event.campaignId),
    key: `campaign-finished:${event.campaignId}`,
  });
}
