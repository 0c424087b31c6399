import { type OutboxEntry, outboxEntry, TOPICS, topicName } from "@crafter/kit";
import { NotificationCreatedSchema } from "@crafter/proto/crafter/events/v1/inbox_pb";
import type { NotificationLevel } from "../domain/inbox";

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
