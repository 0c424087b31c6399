import type { KeyObject } from "node:crypto";
import type { DraftStep } from "@crafter/email-language";
import type { Caller, Logger } from "@crafter/kit";
import type { BusinessZonesPort } from "./clients/business-zones";
import type { AutomationPorts } from "./domain/automation-ports";
import type { CampaignsPort, CraftSource } from "./domain/calendar-ports";
import type { BusinessFooter, ContactLinks, EmailContact } from "./domain/email-compose";
import type { ResolvedSender } from "./domain/sender";
import type { ChannelAdapter } from "./domain/social-channels";
import type { SocialImagesPort, SocialTokensPort } from "./domain/social-ports";
import type { PublishRules } from "./domain/social-publishing";
import type { EmailEvents, InboxEvents } from "./events/publishers";
import type { Mailer } from "./mail/mailer";
import type { EmailProvider, SendThrottle } from "./mail/providers";
import type { NotificationsStores } from "./store";
import type { SenderCache, SenderDeps } from "./usecases/sender";
import type { WebhookDeps } from "./usecases/webhooks";

/** The calendar and inbox area's ports and event builders. */
export interface CalendarArea {
  /** NotificationCreated outbox entries. */
  inboxEvents: InboxEvents;
  /** Wakes the outbox relay after a write that pushed an event. */
  kick: () => void;
  /** The scheduled crafts' names and workflows (the workflows service). */
  crafts: CraftSource;
  /** The email area's campaigns: rates and rescheduling. */
  campaigns: CampaignsPort;
}

/** What the notifications use cases need; built once in main.ts. */
export interface NotificationsDeps {
  stores: NotificationsStores;
  /** The automations area's ports: contacts, the contact mailer, the owner notifier, the step queue. */
  automations: AutomationPorts;
  mailer: Mailer;
  /** Public origin of the deployment, without a trailing slash; email links point here. */
  publicOrigin: string;
  logger: Logger;
  /** The clock (injected so tests can fix it). */
  now: () => Date;
  /** Each project's business time zone (days and hours are the business's, not UTC's). */
  zones: BusinessZonesPort;
  /** The email area: campaigns, per-recipient delivery, tracking. */
  email: EmailDeps;
  /** The calendar and inbox. */
  calendar: CalendarArea;
  /** Sender identities and sending domains (Settings), with the per-project sender cache. */
  sender: SenderDeps & { cache: SenderCache };
  /** Outgoing webhooks: endpoints, signed deliveries and their retries, Zapier's hooks. */
  webhooks: WebhookDeps;
  /** Social publishing: the providers' adapters, their tokens, images, rules and the job queue. */
  social: SocialArea;
}

/** Social publishing's collaborators and settings. */
export interface SocialArea {
  /** Each provider's adapter (clients/social/registry.ts). */
  adapters: ReadonlyMap<ChannelAdapter["provider"], ChannelAdapter>;
  tokens: SocialTokensPort;
  images: SocialImagesPort;
  rules: PublishRules;
  /** A user's enabled feature flags (account's GetFlags): `direct_publish_social_media` gates publishing. */
  flagsOf(userId: string): Promise<readonly string[]>;
  /** Runs a post at `at` (a delayed job; now when past). */
  schedule(postId: string, at: Date): Promise<void>;
}

/** A contact as email sees it. */
export interface EmailRecipient extends EmailContact {
  /** pending, subscribed, unsubscribed, bounced, complained. */
  consent: string;
  /** The contact's own IANA time zone; "" for none (the business's applies). */
  timeZone?: string;
}

/** The contacts service, as the email area uses it (service token, naming the user). */
export interface EmailContactsPort {
  /** One contact, or null when it does not exist (in that user's project). */
  contact(userId: string, projectId: string, contactId: string): Promise<EmailRecipient | null>;
  /** The subscribed members of a saved segment, in pages. @throws NOT_FOUND for an unknown segment. */
  subscribedMembers(userId: string, projectId: string, segmentId: string): AsyncIterable<EmailRecipient[]>;
  /** Every member of a saved segment, whatever its consent, in pages. @throws NOT_FOUND for an unknown segment. */
  segmentMembers(userId: string, projectId: string, segmentId: string): AsyncIterable<EmailRecipient[]>;
  /** Records a bounce or complaint as the contact's consent. */
  setConsent(
    userId: string,
    projectId: string,
    contactId: string,
    consent: "bounced" | "complained",
    source: string,
  ): Promise<void>;
}

/** A contact's signed unsubscribe and preference links (contacts' GetContactLinks). */
export interface ContactLinksPort {
  links(userId: string, projectId: string, contactId: string): Promise<ContactLinks>;
}

/** Billing's `emails` counter (ReserveUsage/ReleaseUsage, idempotent by key). */
export interface EmailUsagePort {
  /** @throws AppError with the plan's limit scenario (FREE_USER_LIMIT, CORE_EMAILS_LIMIT, PLAN_LIMIT_REACHED). */
  reserve(userId: string, key: string): Promise<void>;
  /** Reserves `amount` emails at once under one key (all or nothing). @throws as `reserve`. */
  reserveMany(userId: string, key: string, amount: number): Promise<void>;
  release(userId: string, key: string): Promise<void>;
}

/** The business profile of a project (the email footer). */
export interface BusinessPort {
  /** With the user's token when there is one (a user's request); a cached snapshot otherwise. */
  footer(userId: string, projectId: string, token?: string): Promise<BusinessFooter>;
}

/** A craft as a campaign reads it: its workflow and its steps' results (the final draft is among them). */
export interface EmailCraft {
  craftId: string;
  name: string;
  workflowName: string;
  steps: DraftStep[];
  /** The craft's project ("" for a standalone craft); absent when the port does not say. */
  projectId?: string;
}

/** The workflows service's crafts, read on behalf of the calling user (their token is forwarded). */
export interface EmailCraftsPort {
  /** The caller's craft, or null when it does not exist or is not theirs. */
  craft(caller: Caller, craftId: string): Promise<EmailCraft | null>;
}

/** Which provider sends a user's marketing email, and its throttle. */
export interface ProviderRouter {
  /**
   * The provider of a user's project: the business's own when it connected one, else the platform's.
   * @throws SendingPausedError when the project's own provider needs reconnecting (its sending waits).
   */
  providerFor(userId: string, projectId?: string): Promise<{ provider: EmailProvider; throttle: SendThrottle }>;
}

/** The email area's collaborators and settings. */
export interface EmailDeps {
  contacts: EmailContactsPort;
  links: ContactLinksPort;
  usage: EmailUsagePort;
  business: BusinessPort;
  /** Email crafts, whose final draft a campaign may send. */
  crafts: EmailCraftsPort;
  providers: ProviderRouter;
  /** The verification key of a business's own SendGrid event webhook; null when it has none. */
  businessWebhookKey?: (projectId: string) => Promise<KeyObject | null>;
  events: EmailEvents;
  /** Wakes the outbox relay. */
  kick: () => void;
  /** HMAC key of the open pixel and click redirect tokens. */
  trackingSecret: string;
  /** Send attempts per delivery before it fails, and the first backoff delay (ms). */
  retry: { attempts: number; baseMs: number };
  /**
   * Messages between their claim and their `sent` record at once in this process (all campaign
   * rounds together), and SMTP connections kept open for campaigns.
   */
  concurrency: number;
  /** An attempt older than this with no outcome was cut short (a crash): it is tried again. */
  attemptLeaseMs: number;
  /** How often a campaign that waits for the plan limit asks again (ms). */
  limitRetryMs: number;
  /**
   * The From, Reply-To and DKIM key of a project's email (usecases/sender.ts senderOfProject);
   * absent: the transport's default From.
   */
  senders?: SenderPort;
  /** The name and logo a business shows the public (the double opt-in email); absent: unbranded. */
  brands?: PublicBrandPort;
}

/** What a business shows the public (projects' GetPublicBrand). */
export interface PublicBrandPort {
  /**
   * @returns the business profile's name and logo (an http(s) URL or a `/media/…` path; "" when none).
   * @throws when the projects service cannot answer or the project is not the user's.
   */
  brandOf(userId: string, projectId: string): Promise<{ name: string; logoUrl: string }>;
}

/** Who a project's email comes from. */
export interface SenderPort {
  /** @param businessName the business profile's name (the display name when the identity has none). */
  resolve(userId: string, projectId: string, businessName: string): Promise<ResolvedSender>;
}
