import { on, type ServiceParts, TOPICS, topicName } from "@crafter/kit";
import {
  ContactCreatedSchema,
  ContactTaggedSchema,
  LeadCapturedSchema,
} from "@crafter/proto/crafter/events/v1/contacts_pb";
import type { NotificationsDeps } from "../deps";
import { startRuns } from "../usecases/automations-engine";

/**
 * The automation engine's triggers: contacts' LeadCaptured, ContactCreated and ContactTagged start
 * runs (at least once; a redelivered event starts nothing new, see startRuns).
 */
export function automationsConsumers(
  namespace: string,
  deps: NotificationsDeps,
): NonNullable<ServiceParts["consumers"]> {
  return {
    topics: [topicName(namespace, TOPICS.contactsContact), topicName(namespace, TOPICS.contactsLead)],
    handlers: [
      on(LeadCapturedSchema, async (event, meta) => {
        await startRuns(deps, { eventId: meta.id, ...event, event: { kind: "lead_captured" } });
      }),
      on(ContactCreatedSchema, async (event, meta) => {
        await startRuns(deps, { eventId: meta.id, ...event, event: { kind: "contact_created" } });
      }),
      on(ContactTaggedSchema, async (event, meta) => {
        if (event.tagsAdded.length === 0) return;
        await startRuns(deps, { eventId: meta.id, ...event, event: { kind: "tag_added", tags: event.tagsAdded } });
      }),
    ],
  };
}
