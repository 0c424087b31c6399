import type { Connection, Model } from "mongoose";
import { type ApprovalRepository, createApprovalRepository } from "./approval.repository";
import { type AutomationRepository, createAutomationRepository } from "./automation.repository";
import { type AutomationRunRepository, createAutomationRunRepository } from "./automation-run.repository";
import { type AutomationTriggerRepository, createAutomationTriggerRepository } from "./automation-trigger.repository";
import { type CalendarRepository, createCalendarRepository } from "./calendar.repository";
import { type CampaignDoc, type CampaignRepository, createCampaignRepository } from "./campaigns.repository";
import { createDeliveryRepository, type DeliveryRepository } from "./delivery.repository";
import { createEmailRepository, type EmailRepository, type FactDoc } from "./email.repository";
import { createInboxRepository, type InboxRepository, type NotificationDoc } from "./inbox.repository";
import { createSenderRepository, type SenderRepository } from "./sender.repository";
import { createSocialRepository, type SocialRepository } from "./social.repository";
import { createTemplateRepository, type TemplateRepository } from "./template.repository";
import { createWebhookRepository, type WebhookRepository } from "./webhook.repository";

/** Every repository of the notifications service, over its own database. */
export interface NotificationsStores {
  deliveries: DeliveryRepository;
  /** Marketing email: per-recipient deliveries and their facts. */
  email: EmailRepository;
  campaigns: CampaignRepository;
  /** Models whose documents carry an outbox (relayed to Kafka by the kit). */
  outbox: Array<Model<CampaignDoc> | Model<FactDoc> | Model<NotificationDoc>>;
  automations: AutomationRepository;
  automationRuns: AutomationRunRepository;
  /** The segment_entered trigger's marks. */
  automationTriggers: AutomationTriggerRepository;
  inbox: InboxRepository;
  calendar: CalendarRepository;
  templates: TemplateRepository;
  /** Sender identities, confirmed from addresses, sending domains and their DKIM keys. */
  senders: SenderRepository;
  /** Approval links of crafts and campaigns, and their reviewers' comments and decisions. */
  approvals: ApprovalRepository;
  /** Outgoing webhook endpoints, the events kept for them, their deliveries and attempts. */
  webhooks: WebhookRepository;
  /** Social posts, their append-only attempt log, and each project's chosen channels. */
  social: SocialRepository;
}

/** Builds the repositories and waits until their indexes exist (the unique keys are the send-once guards). */
export async function createStores(connection: Connection): Promise<NotificationsStores> {
  const [
    deliveries,
    email,
    campaigns,
    automations,
    automationRuns,
    inbox,
    calendar,
    templates,
    automationTriggers,
    senders,
    approvals,
    webhooks,
    social,
  ] = await Promise.all([
    createDeliveryRepository(connection),
    createEmailRepository(connection),
    createCampaignRepository(connection),
    createAutomationRepository(connection),
    createAutomationRunRepository(connection),
    createInboxRepository(connection),
    createCalendarRepository(connection),
    createTemplateRepository(connection),
    createAutomationTriggerRepository(connection),
    createSenderRepository(connection),
    createApprovalRepository(connection),
    createWebhookRepository(connection),
    createSocialRepository(connection),
  ]);
  return {
    deliveries,
    email,
    campaigns,
    automations,
    automationRuns,
    inbox,
    calendar,
    templates,
    automationTriggers,
    senders,
    approvals,
    webhooks,
    social,
    outbox: [campaigns.model, email.facts, inbox.model],
  };
}
