import { type EventMeta, on, type ServiceParts, TOPICS, topicName } from "@crafter/kit";
import {
  ContactCreatedSchema,
  ContactUpdatedSchema,
  LeadCapturedSchema,
} from "@crafter/proto/crafter/events/v1/contacts_pb";
import { CampaignFinishedSchema, EmailBouncedSchema } from "@crafter/proto/crafter/events/v1/email_pb";
import { CraftCompletedSchema } from "@crafter/proto/crafter/events/v1/events_pb";
import { ReviewReceivedSchema } from "@crafter/proto/crafter/events/v1/reviews_pb";
import type { WebhookEventType } from "@crafter/validation";
import type { WebhookEvent } from "../domain/webhooks";
import { recordWebhookEvent, type WebhookDeps } from "../usecases/webhooks";

/** When the event happened: its `ce_time`, else now. */
function timeOf(meta: EventMeta): Date {
  const at = new Date(meta.time);
  return Number.isNaN(at.getTime()) ? new Date() : at;
}

/**
 * The events outgoing webhooks carry, from the services' Kafka events: contacts (created,
 * updated, lead captured), workflows (craft completed), email (campaign sent, bounced) and
 * projects (a review received from the business's Google Business Profile).
 */
export function webhooksConsumers(
  namespace: string,
  deps: Pick<WebhookDeps, "store" | "queue">,
): NonNullable<ServiceParts["consumers"]> {
  const record = <T extends WebhookEventType>(meta: EventMeta, event: WebhookEvent<T>) =>
    recordWebhookEvent(deps, meta.id, timeOf(meta), event as WebhookEvent<WebhookEventType>);
  return {
    topics: [
      topicName(namespace, TOPICS.contactsContact),
      topicName(namespace, TOPICS.contactsLead),
      topicName(namespace, TOPICS.workflowsCraft),
      topicName(namespace, TOPICS.notificationsEmail),
      topicName(namespace, TOPICS.projectsProject),
    ],
    handlers: [
      on(ContactCreatedSchema, (event, meta) =>
        record(meta, {
          type: "contact.created",
          projectId: event.projectId,
          data: {
            projectId: event.projectId,
            contactId: event.contactId,
            email: event.email,
            consent: event.consent,
            source: event.source,
          },
        }),
      ),
      on(ContactUpdatedSchema, (event, meta) =>
        record(meta, {
          type: "contact.updated",
          projectId: event.projectId,
          data: { projectId: event.projectId, contactId: event.contactId, email: event.email, consent: event.consent },
        }),
      ),
      on(LeadCapturedSchema, (event, meta) =>
        record(meta, {
          type: "lead.captured",
          projectId: event.projectId,
          data: {
            projectId: event.projectId,
            contactId: event.contactId,
            email: event.email,
            source: event.source,
            originId: event.originId,
          },
        }),
      ),
      on(CraftCompletedSchema, (event, meta) =>
        record(meta, {
          type: "craft.completed",
          projectId: event.projectId,
          data: { projectId: event.projectId, craftId: event.craftId, workflowName: event.workflowName },
        }),
      ),
      on(CampaignFinishedSchema, (event, meta) =>
        record(meta, {
          type: "campaign.sent",
          projectId: event.projectId,
          data: {
            projectId: event.projectId,
            campaignId: event.campaignId,
            name: event.name,
            sent: event.sent,
            failed: event.failed,
            skipped: event.skipped,
          },
        }),
      ),
      on(ReviewReceivedSchema, (event, meta) =>
        record(meta, {
          type: "review.received",
          projectId: event.projectId,
          data: {
            projectId: event.projectId,
            reviewId: event.reviewId,
            rating: event.rating,
            comment: event.text,
            reviewerName: event.author,
            createdAt: event.reviewedAt
              ? new Date(
                  Number(event.reviewedAt.seconds) * 1000 + Math.floor(event.reviewedAt.nanos / 1e6),
                ).toISOString()
              : "",
          },
        }),
      ),
      on(EmailBouncedSchema, (event, meta) =>
        record(meta, {
          type: "email.bounced",
          projectId: event.projectId,
          data: {
            projectId: event.projectId,
            contactId: event.contactId,
            email: event.email,
            kind: event.kind === "complaint" ? "complaint" : "bounce",
            campaignId: event.campaignId,
            automationId: event.automationId,
          },
        }),
      ),
    ],
  };
}
