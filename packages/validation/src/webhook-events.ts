import { z } from "zod";

/**
 * The events a project's outgoing webhooks carry (spec §1, Zapier and signed webhooks), declared
 * once: the notifications service builds each payload's `data` as this shape, the gateway documents
 * them in the OpenAPI document's `webhooks` section, and the dashboard lists them by these names.
 *
 * Every delivery is an HTTP POST with a JSON body `{ type, timestamp, data }` (the Standard Webhooks
 * payload structure) and the headers `webhook-id` (the same on every retry and resend),
 * `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature` (`v1,<base64 HMAC-SHA256>`
 * of `<id>.<timestamp>.<body>` with the endpoint's `whsec_…` secret).
 */

const id = (description: string) => z.string().meta({ description });

const contactBase = {
  projectId: id("The project the contact belongs to."),
  contactId: id("The contact's id."),
  email: z.string().meta({ description: 'The contact\'s email address ("" when it has none).' }),
  consent: z
    .string()
    .meta({ description: "Its email marketing consent: pending, subscribed, unsubscribed, bounced or complained." }),
};

/** Each event's `data`, by event type. */
export const WEBHOOK_EVENT_DATA = {
  "contact.created": z
    .object({
      ...contactBase,
      source: z.string().meta({ description: "How it was made: manual, import, lead_form, lead_assistant, api…" }),
    })
    .meta({ id: "ContactCreatedWebhookData" }),
  "contact.updated": z.object(contactBase).meta({ id: "ContactUpdatedWebhookData" }),
  "lead.captured": z
    .object({
      projectId: contactBase.projectId,
      contactId: contactBase.contactId,
      email: contactBase.email,
      source: z.string().meta({ description: "lead_form or lead_assistant." }),
      originId: id("The lead form's or the lead assistant's id."),
    })
    .meta({ id: "LeadCapturedWebhookData" }),
  "craft.completed": z
    .object({
      projectId: id("The craft's project."),
      craftId: id("The craft's id."),
      workflowName: z.string().meta({ description: "The workflow the craft was made from." }),
    })
    .meta({ id: "CraftCompletedWebhookData" }),
  "campaign.sent": z
    .object({
      projectId: id("The campaign's project."),
      campaignId: id("The campaign's id."),
      name: z.string(),
      sent: z.number().int().meta({ description: "Recipients the provider accepted." }),
      failed: z.number().int().meta({ description: "Recipients whose email failed." }),
      skipped: z.number().int().meta({ description: "Recipients skipped (no consent, no address)." }),
    })
    .meta({ id: "CampaignSentWebhookData" }),
  "email.bounced": z
    .object({
      projectId: id("The email's project."),
      contactId: contactBase.contactId,
      email: contactBase.email,
      kind: z.enum(["bounce", "complaint"]),
      campaignId: z.string().meta({ description: 'The campaign that sent it ("" for an automation\'s email).' }),
      automationId: z.string().meta({ description: 'The automation that sent it ("" for a campaign\'s email).' }),
    })
    .meta({ id: "EmailBouncedWebhookData" }),
  "review.received": z
    .object({
      projectId: id("The business's project."),
      reviewId: id("The review's id in Crafter."),
      rating: z.number().int().min(0).max(5).meta({ description: "Stars, 1 to 5 (0 when the review has none)." }),
      comment: z.string(),
      reviewerName: z.string(),
      createdAt: z
        .string()
        .meta({ description: 'When the reviewer wrote it (ISO 8601; "" when the provider does not say).' }),
    })
    .meta({ id: "ReviewReceivedWebhookData" }),
  "webhook.test": z
    .object({
      projectId: id("The endpoint's project."),
      endpointId: id("The endpoint the test was sent to."),
      message: z.string(),
    })
    .meta({ id: "WebhookTestData" }),
} as const;

/** An event type a webhook endpoint can subscribe to (`webhook.test` is sent on request only). */
export type WebhookEventType = Exclude<keyof typeof WEBHOOK_EVENT_DATA, "webhook.test">;

/** The event types an endpoint can choose, in the order the dashboard lists them. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = [
  "contact.created",
  "contact.updated",
  "lead.captured",
  "craft.completed",
  "campaign.sent",
  "email.bounced",
  "review.received",
];

/** What each event means, for the dashboard, the OpenAPI document and the Zapier app. */
export const WEBHOOK_EVENT_LABELS: Record<keyof typeof WEBHOOK_EVENT_DATA, string> = {
  "contact.created": "A contact was created (by hand, import, the lead form or the API).",
  "contact.updated": "A contact's email or consent changed.",
  "lead.captured": "A lead form or the lead assistant captured a lead.",
  "craft.completed": "A craft completed its last step.",
  "campaign.sent": "Every recipient of an email campaign has an outcome.",
  "email.bounced": "An email bounced or its recipient complained of spam.",
  "review.received": "A new Google Business Profile review was imported.",
  "webhook.test": "A test event sent from Settings › Integrations.",
};

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** The data of an event of type `T`. */
export type WebhookEventData<T extends keyof typeof WEBHOOK_EVENT_DATA> = z.infer<(typeof WEBHOOK_EVENT_DATA)[T]>;

/** The JSON body of a delivery of an event of type `T`. */
export interface WebhookPayload<T extends keyof typeof WEBHOOK_EVENT_DATA = keyof typeof WEBHOOK_EVENT_DATA> {
  type: T;
  /** When the event happened (ISO 8601, UTC). */
  timestamp: string;
  data: WebhookEventData<T>;
}

/** The payload schema of one event type (the OpenAPI `webhooks` entry's request body). */
export function webhookPayloadSchema<T extends keyof typeof WEBHOOK_EVENT_DATA>(type: T) {
  return z.object({
    type: z.literal(type),
    timestamp: z.string().meta({ description: "When the event happened (ISO 8601, UTC)." }),
    data: WEBHOOK_EVENT_DATA[type],
  });
}
