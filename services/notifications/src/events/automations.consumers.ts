import { on, type ServiceParts, TOPICS, topicName } from "@crafter/kit";
import {
  ContactCreatedSchema,
  ContactTaggedSchema,
  ContactUpdatedSchema,
  LeadCapturedSchema,
} from "@crafter/proto/crafter/events/v1/contacts_pb";
import { EmailClickedSchema, EmailOpenedSchema } from "@crafter/proto/crafter/events/v1/email_pb";
import type { NotificationsDeps } from "../deps";
import { enterSegments } from "../usecases/automation-triggers";
import { startRuns } from "../usecases/automations-engine";

/**
 * The automation engine's triggers: contacts' LeadCaptured, ContactCreated and ContactTagged, and
 * the email area's EmailOpened and EmailClicked (a contact's first open or click of a campaign's or
 * an automation's email), start runs; ContactCreated, ContactUpdated and ContactTagged also check
 * segment entries (enterSegments). At least once: a redelivered event starts nothing new (see
 * startRuns and enterSegments). The date_field trigger is a scan (jobs/automation-queue.ts).
 */
export function automationsConsumers(
  namespace: string,
  deps: NotificationsDeps,
): NonNullable<ServiceParts["consumers"]> {
  return {
    topics: [
      topicName(namespace, TOPICS.contactsContact),
      topicName(namespace, TOPICS.contactsLead),
      topicName(namespace, TOPICS.notificationsEmail),
    ],
    handlers: [
      on(LeadCapturedSchema, async (event, meta) => {
        await startRuns(deps, { eventId: meta.id, ...event, event: { kind: "lead_captured" } });
      }),
      on(ContactCreatedSchema, async (event, meta) => {
        await startRuns(deps, { eventId: meta.id, ...event, event: { kind: "contact_created" } });
        await enterSegments(deps, { eventId: meta.id, ...event });
      }),
      on(ContactUpdatedSchema, async (event, meta) => {
        await enterSegments(deps, { eventId: meta.id, ...event });
      }),
      on(ContactTaggedSchema, async (event, meta) => {
        if (event.tagsAdded.length > 0)
          await startRuns(deps, { eventId: meta.id, ...event, event: { kind: "tag_added", tags: event.tagsAdded } });
        await enterSegments(deps, { eventId: meta.id, ...event });
      }),
      on(EmailOpenedSchema, async (event, meta) => {
        await startRuns(deps, {
          eventId: meta.id,
          ...event,
          event: { kind: "email_opened", campaignId: event.campaignId, automationId: event.automationId },
        });
      }),
      on(EmailClickedSchema, async (event, meta) => {
        await startRuns(deps, {
          eventId: meta.id,
          ...event,
          event: { kind: "email_clicked", campaignId: event.campaignId, automationId: event.automationId },
        });
      }),
    ],
  };
}
