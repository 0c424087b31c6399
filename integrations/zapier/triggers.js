const { call } = require("./api");

// One instant trigger per webhook event (the payloads are the OpenAPI document's `webhooks`
// section): REST Hooks subscribe and unsubscribe through /api/zapier/hooks, with the latest events
// from /api/zapier/triggers/{event} as the polling fallback and the Zap editor's samples.
const EVENTS = [
  {
    event: "contact.created",
    key: "contact_created",
    noun: "Contact",
    label: "New Contact",
    sample: { contactId: "c_1", email: "ada@example.com", consent: "pending", source: "manual" },
  },
  {
    event: "contact.updated",
    key: "contact_updated",
    noun: "Contact",
    label: "Updated Contact",
    sample: { contactId: "c_1", email: "ada@example.com", consent: "subscribed" },
  },
  {
    event: "lead.captured",
    key: "lead_captured",
    noun: "Lead",
    label: "New Lead",
    sample: { contactId: "c_1", email: "ada@example.com", source: "lead form", originId: "f_1" },
  },
  {
    event: "craft.completed",
    key: "craft_completed",
    noun: "Craft",
    label: "Craft Completed",
    sample: { craftId: "cr_1", workflowName: "BlogWriter" },
  },
  {
    event: "campaign.sent",
    key: "campaign_sent",
    noun: "Campaign",
    label: "Campaign Sent",
    sample: { campaignId: "ca_1", name: "Autumn news", sent: 120, failed: 1, skipped: 4 },
  },
  {
    event: "email.bounced",
    key: "email_bounced",
    noun: "Bounce",
    label: "Email Bounced",
    sample: { contactId: "c_1", email: "ada@example.com", kind: "bounce", campaignId: "ca_1", automationId: "" },
  },
  {
    event: "review.received",
    key: "review_received",
    noun: "Review",
    label: "New Review",
    sample: {
      reviewId: "r_1",
      rating: 5,
      comment: "Great bikes",
      reviewerName: "Ada",
      createdAt: "2026-11-28T05:00:00.000Z",
    },
  },
];

/** A Crafter payload as one flat Zapier item: its id (the webhook-id), type, time and data's fields. */
const itemOf = (id, payload) => ({ id, type: payload.type, timestamp: payload.timestamp, ...(payload.data || {}) });

const headerOf = (bundle, name) => {
  const headers = bundle.rawRequest?.headers || {};
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === wanted || key.toLowerCase() === `http-${wanted}`) return value;
  return undefined;
};

const triggerOf = ({ event, key, noun, label, sample }) => ({
  key,
  noun,
  display: { label, description: `Triggers instantly on Crafter's ${event} event.` },
  operation: {
    type: "hook",
    performSubscribe: (z, bundle) => call(z, "POST", "/api/zapier/hooks", { targetUrl: bundle.targetUrl, event }),
    performUnsubscribe: (z, bundle) =>
      call(z, "DELETE", `/api/zapier/hooks/${encodeURIComponent(bundle.subscribeData.id)}`, {}),
    perform: (_z, bundle) => {
      const payload = bundle.cleanedRequest || {};
      const id =
        headerOf(bundle, "webhook-id") || `${payload.type}:${payload.timestamp}:${JSON.stringify(payload.data)}`;
      return [itemOf(id, payload)];
    },
    performList: async (z) => {
      const events = await call(z, "GET", `/api/zapier/triggers/${encodeURIComponent(event)}`);
      return events.map((recent) =>
        itemOf(recent.id, { type: recent.type, timestamp: recent.timestamp, data: recent.data }),
      );
    },
    sample: { id: "msg_sample", type: event, timestamp: "2026-11-28T05:00:00.000Z", projectId: "p_1", ...sample },
  },
});

module.exports = { EVENTS, triggers: Object.fromEntries(EVENTS.map((spec) => [spec.key, triggerOf(spec)])) };
