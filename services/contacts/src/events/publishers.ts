/**
 * Builders of the events the contacts service publishes, as outbox entries. It publishes none yet:
 * to add one, add its topic to TOPICS (services/kit/src/events/topics.ts) and to this service's
 * `publishes` in services/manifest.yaml, put its message in proto/crafter/events/v1, and build it
 * here with `outboxEntry(topic, aggregateId, Schema, value)` (the key is the aggregate id).
 */
export class ContactsEvents {
  /** The full names of the topics it publishes (`<namespace>.<name>`). */
  readonly topics: string[] = [];

  constructor(readonly namespace: string) {}
}
