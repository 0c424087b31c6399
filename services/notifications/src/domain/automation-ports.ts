import type { Caller } from "@crafter/kit";
import type { ConditionGroup, ConditionRule, StepPost } from "./automation-model";

/**
 * What the automation engine needs from outside its area, as ports (docs/email-contract.md
 * "In-process functions"). main.ts binds them: ContactMailer to email-api's `sendToContact`,
 * OwnerNotifier to the calendar area's `notify`, AutomationContacts to the contacts service's RPCs,
 * StepQueue to BullMQ.
 */

/**
 * Sends one email to one contact, once per `key` (consent checked, footer and tracking added; not
 * without the business's postal address: `no_address`).
 */
export interface ContactMailer {
  sendToContact(input: {
    userId: string;
    projectId: string;
    contactId: string;
    subject: string;
    html: string;
    preheader?: string;
    source: { kind: "automation"; id: string };
    key: string;
  }): Promise<{
    deliveryId: string;
    status: "queued" | "skipped";
    reason?: "not_subscribed" | "duplicate" | "limit" | "no_address";
  }>;
  /**
   * The business's postal address its emails carry ("" when the business profile has none), read
   * with the user's `token` when there is one (a user's request).
   */
  senderAddress(userId: string, projectId: string, token?: string): Promise<string>;
}

/** Posts an in-app notification to the owner, once per `key`. */
export interface OwnerNotifier {
  notify(input: {
    userId: string;
    level: "info" | "warning" | "success" | "error";
    title: string;
    body: string;
    link?: string;
    key: string;
  }): Promise<{ notificationId: string }>;
}

/** One contact as the engine needs it. */
export interface AutomationContact {
  contactId: string;
  email: string;
  firstName: string;
  lastName: string;
  consent: "pending" | "subscribed" | "unsubscribed" | "bounced" | "complained" | "";
}

/** The contacts service, called with notifications' service token naming the user. */
export interface AutomationContacts {
  /** @returns null when the contact is gone. */
  get(userId: string, projectId: string, contactId: string): Promise<AutomationContact | null>;
  tag(userId: string, projectId: string, contactId: string, add: string[], remove: string[]): Promise<void>;
  /** Sets one field (a ContactInput JSON name or `custom.<key>`). */
  setField(
    userId: string,
    projectId: string,
    contactId: string,
    field: string,
    value: string | number | boolean | null,
  ): Promise<void>;
  /** Whether the contact matches a condition (the segments' evaluator, in the contacts service). */
  matches(
    userId: string,
    projectId: string,
    contactId: string,
    query: ConditionGroup | ConditionRule,
  ): Promise<boolean>;
  /** Which of these saved segments the contact is in now (contacts' MatchSegments; unknown ones left out). */
  matchSegments(userId: string, projectId: string, contactId: string, segmentIds: string[]): Promise<string[]>;
  /**
   * One page of the project's contacts whose date field (`customerSince` or `custom.<key>`) falls
   * on one of `monthDays` (`MM-DD`, UTC), by `_id` after `after` (contacts' ListContactsByDate).
   */
  contactsOnDate(input: {
    userId: string;
    projectId: string;
    field: string;
    monthDays: string[];
    after: string;
    limit: number;
  }): Promise<{ contacts: { contactId: string; email: string }[]; next: string }>;
}

/** Delayed steps: runs `executeStep(runId, stepId)` after `delayMs`; adding one job twice keeps one. */
export interface StepQueue {
  enqueue(runId: string, stepId: string, delayMs: number): Promise<void>;
}

/** The user's email templates (the template area's): a send_email step may name one instead of its own body. */
export interface TemplateSource {
  /** The template's rendered HTML (smart values left for the mailer to fill) and subject. @throws NOT_FOUND */
  content(userId: string, templateId: string): Promise<{ subject: string; html: string }>;
}

/** The social publishing engine, as a publish_social_post step uses it. */
export interface SocialPoster {
  /**
   * The post of a social craft as the user sees it now, to keep in the step when the automation is
   * saved. @throws CR_ERR_BAD_REQUEST (`steps`: not found, not a social post, nothing to publish)
   */
  postOfCraft(caller: Caller, projectId: string, craftId: string, channelIds: string[]): Promise<StepPost>;
  /**
   * Hands the post to the engine, once per `postId` (the run's step): the same id again makes no
   * second post, it only wakes the first. `refused`: it cannot be published as it is (the flag is
   * off, no channel is chosen, a channel needs an image), which no retry changes.
   */
  publish(input: {
    userId: string;
    projectId: string;
    automationId: string;
    postId: string;
    post: StepPost;
    channelIds: string[];
  }): Promise<{ state: "queued"; channels: string[] } | { state: "refused"; reason: string }>;
}

/** Everything the automations area needs besides the stores; `deps.automations`. */
export interface AutomationPorts {
  contacts: AutomationContacts;
  mailer: ContactMailer;
  templates: TemplateSource;
  /** The calendar's `notify` (main.ts); when null, notify_owner steps are skipped, saying so. */
  notifier: OwnerNotifier | null;
  queue: StepQueue;
  /** Social publishing (main.ts); when null, publish_social_post steps are skipped, saying so. */
  social: SocialPoster | null;
  /** Multiplies wait durations (AUTOMATION_WAIT_SCALE): 1 in production, small in tests. */
  waitScale: number;
}
