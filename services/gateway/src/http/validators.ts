import {
  GOOGLE_ACCOUNT_NAME,
  GOOGLE_ACCOUNT_NAME_MESSAGE,
  GOOGLE_LOCATION_NAME,
  GOOGLE_LOCATION_NAME_MESSAGE,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from "@crafter/validation";
import { z } from "zod";
import { emailOrNone, jsonObject, LINK_PATH, PORT } from "./schemas";

// Request rules that are code rather than limits (the kit's email rule, a domain's labels), named
// so a proto field's REST binding can use one: `(crafter.api.v1.field) = {validator: "<name>"}`
// (routes/gen imports it from here). Each is the service's own rule, stated as the document says it.

const DOMAIN_MESSAGE = "Enter a domain such as example.com";

/**
 * A domain as notifications reads it (dkim.ts normalDomain): labels of 1 to 63 letters, digits and
 * inner hyphens, at least two, a last label not all digits, an optional final dot; in patterns the
 * document states (without the spaces around it that the service would also trim).
 */
export const sendingDomain = z
  .string({ error: DOMAIN_MESSAGE })
  .max(253, DOMAIN_MESSAGE)
  .regex(
    /^([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.?$/,
    DOMAIN_MESSAGE,
  )
  .regex(/\.[A-Za-z0-9-]*[A-Za-z-][A-Za-z0-9-]*\.?$/, DOMAIN_MESSAGE)
  .meta({ description: "e.g. example.com" });

/** A sender identity's from address: an email address, or "" for none. */
export const senderFromAddress = emailOrNone("From address must be an email address");

/** A sender identity's reply-to: an email address, or "" for replies to the From address. */
export const senderReplyTo = emailOrNone("Reply-to must be an email address");

/** An automation's name, trimmed: 1 to 120 characters. */
export const automationName = z
  .string({ error: "name must be text" })
  .trim()
  .min(1, "Give the automation a name")
  .max(120, "A name has at most 120 characters");

/**
 * An automation's trigger as sent: only shaped here; the notifications service checks it with its
 * one schema (src/domain/automation-model.ts) and answers the problem in error.fields.
 */
export const automationTrigger = z
  .looseObject({
    kind: z.string({ error: "trigger.kind is required" }).max(40).meta({
      description:
        "lead_captured, contact_created, tag_added (tag), segment_entered (segmentId), email_opened or email_clicked (campaignId?), date_field (field, offsetDays?).",
    }),
  })
  .meta({ id: "AutomationTrigger" });

/** An automation's steps as sent: at most 50 objects, checked deeply by the notifications service. */
export const automationSteps = z
  .array(jsonObject("A step"), { error: "steps is a list" })
  .max(50, "An automation has at most 50 steps")
  .meta({
    description:
      "Step { id, kind: wait|condition|send_email|add_tag|remove_tag|update_field|notify_owner|publish_social_post, … }: wait { duration (ISO 8601) | until (an instant) | at (HH:mm, the next such time in the business's time zone) }, condition { query (segments' query JSON), yes: Step[], no: Step[] }, send_email { subject, html, preheader? }, add_tag/remove_tag { tag }, update_field { field, value }, notify_owner { title, body?, level? }, publish_social_post { craftId (a social post craft), channelIds (ids from GET /api/social/channels; empty: the project's chosen ones) } (its post is read from the craft on save, once per run).",
  });

/** An automation's trigger as answered. */
export const automationTriggerShape = z.looseObject({ kind: z.string() });

/** An automation's steps as answered. */
export const automationStepsShape = z.array(z.record(z.string(), z.unknown()));

// A host name's last label starts with a letter: one of digits (…example.7) makes a URL parser
// read the host as an IPv4 address, which it is not. A dotted IPv4 address is its own branch.
const IPV4_OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
const HOST = `(([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\\.)*[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?|(${IPV4_OCTET}\\.){3}${IPV4_OCTET})`;
const WEBHOOK_URL = new RegExp(`^https?://${HOST}(:${PORT})?([/?#]${LINK_PATH})?$`);

/**
 * A webhook endpoint's URL: absolute http(s), no credentials, at most 2000 characters. The
 * notifications service also refuses private addresses, and every delivery is checked again on the
 * address it connects to (the kit's outbound rules).
 */
export const webhookUrl = z
  .string({ error: "Enter the URL that receives the events" })
  .min(1, "Enter the URL that receives the events")
  .max(2000, "A URL has at most 2000 characters")
  // The document states the rule as a pattern: an http(s) host of letters, digits, hyphens and dots,
  // an optional port, then a path without spaces or control characters; no credentials.
  .regex(WEBHOOK_URL, "Enter an http:// or https:// URL without credentials")
  .refine((text) => {
    try {
      const url = new URL(text);
      return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password;
    } catch {
      return false;
    }
  }, "Enter an http:// or https:// URL without credentials")
  .meta({ description: "Where events are POSTed, e.g. https://hooks.example.com/crafter." });

const webhookEventName = z.enum(WEBHOOK_EVENT_TYPES as [WebhookEventType, ...WebhookEventType[]], {
  error: `An event is one of ${WEBHOOK_EVENT_TYPES.join(", ")}`,
});

/** One event type an endpoint (or a Zapier hook) receives. */
export const webhookEvent = webhookEventName;

/** The event types an endpoint receives: one at least, no repeats. */
export const webhookEvents = z
  .array(webhookEventName, { error: "Choose the events to send" })
  .min(1, "Choose at least one event")
  .max(WEBHOOK_EVENT_TYPES.length, "An event is listed once")
  .refine((events) => new Set(events).size === events.length, "An event is listed once")
  .meta({ uniqueItems: true });

/** The event types when changing an endpoint: [] (or absent) keeps them. */
export const webhookEventsOrKeep = z
  .array(webhookEventName, { error: "events is a list of event types" })
  .max(WEBHOOK_EVENT_TYPES.length, "An event is listed once")
  .refine((events) => new Set(events).size === events.length, "An event is listed once")
  .meta({ uniqueItems: true })
  .default([]);

/** Whether an endpoint receives events. */
export const webhookEnabled = z.boolean({ error: "enabled is true or false" });

/** A webhook event's `data` as the polling fallback answers it (its shape per type: the document's webhooks section). */
export const webhookEventDataDoc = z.record(z.string(), z.unknown());

/** A Google Business Profile account's resource name, `accounts/{id}`, as projects checks it. */
export const googleAccountName = z
  .string({ error: GOOGLE_ACCOUNT_NAME_MESSAGE })
  .regex(GOOGLE_ACCOUNT_NAME, GOOGLE_ACCOUNT_NAME_MESSAGE);

/** A Google Business Profile location's resource name, `locations/{id}`, as projects checks it. */
export const googleLocationName = z
  .string({ error: GOOGLE_LOCATION_NAME_MESSAGE })
  .regex(GOOGLE_LOCATION_NAME, GOOGLE_LOCATION_NAME_MESSAGE);
