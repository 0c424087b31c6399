import { dayIn } from "@crafter/time";
import type { NotificationsDeps } from "../deps";
import { dateOccurrence, monthDaysFor, segmentOccurrence, segmentTransition } from "../domain/automation-engine";
import { startRuns } from "./automations-engine";

type Deps = Pick<NotificationsDeps, "stores" | "automations" | "logger" | "now" | "zones">;

/**
 * The segment_entered trigger, after a contact changed (ContactCreated, ContactUpdated,
 * ContactTagged): asks the contacts service which of the segments the project's active
 * segment_entered automations name the contact is in now, appends an entry (or leaving) mark where
 * that changed, and starts runs for each entry, once per entry (runIdOf's occurrence is the entry).
 * A contact already inside when its first event after the automation's activation arrives counts
 * as entering then. @returns how many runs were started.
 */
export async function enterSegments(
  deps: Deps,
  input: { eventId: string; userId: string; projectId: string; contactId: string; email: string },
): Promise<number> {
  if (!input.userId || !input.projectId || !input.contactId) return 0;
  const automations = await deps.stores.automations.activeWithTrigger(input.userId, input.projectId, "segment_entered");
  const segmentIds = [...new Set(automations.map((a) => a.trigger.segmentId).filter((id): id is string => !!id))];
  if (segmentIds.length === 0) return 0;
  const inside = new Set(
    await deps.automations.contacts.matchSegments(input.userId, input.projectId, input.contactId, segmentIds),
  );
  let started = 0;
  for (const segmentId of segmentIds) {
    const marks = deps.stores.automationTriggers;
    const latest = await marks.latestMark(segmentId, input.contactId);
    const change = segmentTransition(latest, inside.has(segmentId), input.eventId);
    if (change.write) {
      const wrote = await marks.addMark({
        userId: input.userId,
        projectId: input.projectId,
        segmentId,
        contactId: input.contactId,
        seq: change.write.seq,
        inside: change.write.inside,
        eventId: input.eventId,
        at: deps.now(),
      });
      // Another handler wrote this mark first: its entry, its runs.
      if (!wrote) continue;
    }
    if (change.start === undefined) continue;
    started += await startRuns(deps, {
      eventId: segmentOccurrence(segmentId, change.start),
      userId: input.userId,
      projectId: input.projectId,
      contactId: input.contactId,
      email: input.email,
      event: { kind: "segment_entered", segmentIds: [segmentId] },
    });
  }
  return started;
}

/** Contacts read per page of the date scan. */
const DATE_PAGE = 500;

/**
 * The date_field trigger's scan at `now`: for every active date_field automation, the contacts of
 * its project whose field's month and day are the business's local day (in its time zone; UTC
 * when it has none), less the trigger's `offsetDays`, start a run, once per contact and local day
 * (the occurrence is that day, so a scan that runs again the same day, or after a restart, starts
 * nothing twice). The scan runs every hour or more often, so each business's day is seen soon
 * after its own midnight. Contacts are found by the contacts service's month-day facets, page by
 * page. @returns how many runs were started.
 */
export async function scanDateFields(deps: Deps, now: Date): Promise<number> {
  const automations = await deps.stores.automations.allActiveWithTrigger("date_field");
  // One contacts query per project, field and offset, whatever the number of automations sharing it.
  const groups = new Map<string, { userId: string; projectId: string; field: string; offsetDays: number }>();
  for (const a of automations) {
    if (!a.trigger.field) continue;
    const offsetDays = a.trigger.offsetDays ?? 0;
    groups.set(JSON.stringify([a.userId, a.projectId, a.trigger.field, offsetDays]), {
      userId: a.userId,
      projectId: a.projectId,
      field: a.trigger.field,
      offsetDays,
    });
  }
  let started = 0;
  for (const group of groups.values()) {
    try {
      const today = dayIn(now, await deps.zones.zoneOf(group.userId, group.projectId));
      let after = "";
      do {
        const page = await deps.automations.contacts.contactsOnDate({
          userId: group.userId,
          projectId: group.projectId,
          field: group.field,
          monthDays: monthDaysFor(today, group.offsetDays),
          after,
          limit: DATE_PAGE,
        });
        for (const contact of page.contacts) {
          started += await startRuns(deps, {
            eventId: dateOccurrence(group.field, today),
            userId: group.userId,
            projectId: group.projectId,
            contactId: contact.contactId,
            email: contact.email,
            event: { kind: "date_field", field: group.field, offsetDays: group.offsetDays },
          });
        }
        after = page.next;
      } while (after);
    } catch (error) {
      // One project's failure (a field deleted since, contacts away) does not stop the others; the next scan retries.
      deps.logger.warn({ err: error, ...group }, "date_field scan of a project failed");
    }
  }
  if (started > 0) deps.logger.info({ started, at: now.toISOString() }, "date_field runs started");
  return started;
}
