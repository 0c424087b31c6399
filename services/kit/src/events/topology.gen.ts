// Generated from services/manifest.yaml by `node scripts/manifest.mjs generate`: do not edit.
// make check (scripts/manifest.mjs check) fails when it is stale.

/** Partitions of a topic the manifest does not name (and of nothing else). */
export const DEFAULT_PARTITIONS = 6;

/** Partitions of each topic (names as in TOPICS, without the namespace); its DLQ has as many. */
export const TOPIC_PARTITIONS: Readonly<Record<string, number>> = {
  "auth.user.v1": 6,
  "account.connection.v1": 6,
  "projects.project.v1": 6,
  "workflows.craft.v1": 6,
  "notifications.email.v1": 6,
  "notifications.inbox.v1": 6,
  "billing.credits.v1": 6,
  "billing.usage.v1": 6,
  "billing.subscription.v1": 6,
  "contacts.contact.v1": 6,
  "contacts.lead.v1": 6,
  "media.asset.v1": 6,
};

/** The topics each service publishes and consumes, as the manifest declares them. */
export const SERVICE_TOPICS: Readonly<Record<string, { publishes: readonly string[]; consumes: readonly string[] }>> = {
  auth: { publishes: ["auth.user.v1"], consumes: [] },
  account: {
    publishes: ["account.connection.v1"],
    consumes: ["auth.user.v1", "workflows.craft.v1", "billing.credits.v1"],
  },
  projects: { publishes: ["projects.project.v1"], consumes: ["workflows.craft.v1", "account.connection.v1"] },
  workflows: { publishes: ["workflows.craft.v1"], consumes: ["projects.project.v1"] },
  notifications: {
    publishes: ["notifications.email.v1", "notifications.inbox.v1"],
    consumes: [
      "auth.user.v1",
      "contacts.contact.v1",
      "contacts.lead.v1",
      "notifications.email.v1",
      "projects.project.v1",
      "account.connection.v1",
      "workflows.craft.v1",
    ],
  },
  billing: {
    publishes: ["billing.credits.v1", "billing.usage.v1", "billing.subscription.v1"],
    consumes: ["auth.user.v1"],
  },
  contacts: { publishes: ["contacts.contact.v1", "contacts.lead.v1"], consumes: ["account.connection.v1"] },
  media: { publishes: ["media.asset.v1"], consumes: [] },
};
