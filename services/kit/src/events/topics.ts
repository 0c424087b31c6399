/**
 * Kafka topics, one per aggregate (DESIGN.md section 4). Names are `<namespace>.<name>`, so the
 * default namespace "crafter" gives e.g. `crafter.auth.user.v1`; each has a `<topic>.dlq`.
 */
export const TOPICS = {
  authUser: "auth.user.v1",
  projectsProject: "projects.project.v1",
  workflowsCraft: "workflows.craft.v1",
  billingCredits: "billing.credits.v1",
  mediaAsset: "media.asset.v1",
  billingUsage: "billing.usage.v1",
  billingSubscription: "billing.subscription.v1",
  contactsContact: "contacts.contact.v1",
  contactsLead: "contacts.lead.v1",
  notificationsEmail: "notifications.email.v1",
  notificationsInbox: "notifications.inbox.v1",
  accountConnection: "account.connection.v1",
} as const;

export type TopicName = (typeof TOPICS)[keyof typeof TOPICS];

export function topicName(namespace: string, name: TopicName): string {
  return `${namespace}.${name}`;
}

export function dlqTopic(topic: string): string {
  return `${topic}.dlq`;
}
