import { type OutboxEntry, outboxEntry, TOPICS, topicName } from "@crafter/kit";
import {
  CampaignFinishedSchema,
  CampaignScheduledSchema,
  EmailBouncedSchema,
  EmailClickedSchema,
  EmailOpenedSchema,
  EmailSentSchema,
} from "@crafter/proto/crafter/events/v1/email_pb";
import { NotificationCreatedSchema } from "@crafter/proto/crafter/events/v1/inbox_pb";
import type { NotificationLevel } from "../domain/inbox";

/** Who an email event is about. */
export interface EmailRef {
  userId: string;
  projectId: string;
  campaignId: string;
  automationId: string;
  contactId: string;
  email: string;
  deliveryId: string;
}

/**
 * Builders of the email area's events on `<ns>.notifications.email.v1`: a delivery's events keyed
 * by the contact id, a campaign's by the campaign id.
 */
export class EmailEvents {
  readonly topic: string;

  constructor(readonly namespace: string) {
    this.topic = topicName(namespace, TOPICS.notificationsEmail);
  }

  sent(ref: EmailRef): OutboxEntry {
    return outboxEntry(this.topic, ref.contactId || ref.deliveryId, EmailSentSchema, ref);
  }

  opened(ref: EmailRef): OutboxEntry {
    return outboxEntry(this.topic, ref.contactId || ref.deliveryId, EmailOpenedSchema, ref);
  }

  clicked(ref: EmailRef, url: string): OutboxEntry {
    return outboxEntry(this.topic, ref.contactId || ref.deliveryId, EmailClickedSchema, { ...ref, url });
  }

  bounced(ref: EmailRef, kind: "bounce" | "complaint"): OutboxEntry {
    return outboxEntry(this.topic, ref.contactId || ref.deliveryId, EmailBouncedSchema, { ...ref, kind });
  }

  campaignFinished(input: {
    userId: string;
    projectId: string;
    campaignId: string;
    name: string;
    sent: number;
    failed: number;
    skipped: number;
  }): OutboxEntry {
    return outboxEntry(this.topic, input.campaignId, CampaignFinishedSchema, input);
  }

  campaignScheduled(input: {
    userId: string;
    projectId: string;
    campaignId: string;
    name: string;
    at: string;
  }): OutboxEntry {
    return outboxEntry(this.topic, input.campaignId, CampaignScheduledSchema, input);
  }
}

/**
 * Builders of the events the notifications service publishes, one `<Area>Events` class per topic.
 * The inbox's NotificationCreated goes on `<ns>.notifications.inbox.v1`, keyed by the user id.
 */
export class InboxEvents {
  readonly topic: string;

  constructor(readonly namespace: string) {
    this.topic = topicName(namespace, TOPICS.notificationsInbox);
  }

  created(n: {
    userId: string;
    notificationId: string;
    level: NotificationLevel;
    title: string;
    body: string;
    link: string;
  }): OutboxEntry {
    return outboxEntry(this.topic, n.userId, NotificationCreatedSchema, n);
  }
}
