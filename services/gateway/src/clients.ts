import type { Client } from "@connectrpc/connect";
import { createServiceClient, serviceCredentials } from "@crafter/kit";
import { AccountService } from "@crafter/proto/crafter/account/v1/account_pb";
import { AdminService } from "@crafter/proto/crafter/account/v1/admin_pb";
import { IntegrationsService } from "@crafter/proto/crafter/account/v1/integrations_pb";
import { AuthService } from "@crafter/proto/crafter/auth/v1/auth_pb";
import { BillingService } from "@crafter/proto/crafter/billing/v1/billing_pb";
import { PaymentsService } from "@crafter/proto/crafter/billing/v1/payments_pb";
import { ReferralsService } from "@crafter/proto/crafter/billing/v1/referrals_pb";
import { ContactsService } from "@crafter/proto/crafter/contacts/v1/contacts_pb";
import { LeadsService } from "@crafter/proto/crafter/contacts/v1/leads_pb";
import { MediaService } from "@crafter/proto/crafter/media/v1/media_pb";
import { ApprovalsService } from "@crafter/proto/crafter/notifications/v1/approvals_pb";
import { AutomationsService } from "@crafter/proto/crafter/notifications/v1/automations_pb";
import { CalendarService, InboxService, SocialService } from "@crafter/proto/crafter/notifications/v1/calendar_pb";
import { CampaignsService } from "@crafter/proto/crafter/notifications/v1/campaigns_pb";
import { SendersService } from "@crafter/proto/crafter/notifications/v1/senders_pb";
import { TemplatesService } from "@crafter/proto/crafter/notifications/v1/templates_pb";
import { WebhooksService } from "@crafter/proto/crafter/notifications/v1/webhooks_pb";
import { CustomDomainsService } from "@crafter/proto/crafter/projects/v1/custom_domains_pb";
import { MembersService } from "@crafter/proto/crafter/projects/v1/members_pb";
import { ProjectsService } from "@crafter/proto/crafter/projects/v1/projects_pb";
import { PagesService } from "@crafter/proto/crafter/workflows/v1/pages_pb";
import { WorkflowsService } from "@crafter/proto/crafter/workflows/v1/workflows_pb";
import type { Config } from "./config";

export interface Clients {
  auth: Client<typeof AuthService>;
  account: Client<typeof AccountService>;
  /** The account service's AdminService. */
  admin: Client<typeof AdminService>;
  /** The account service's integrations (connections), with the user's token. */
  integrations: Client<typeof IntegrationsService>;
  /** The same with the gateway's service token: the provider's OAuth callback (the signed state is the proof). */
  integrationsAsGateway: Client<typeof IntegrationsService>;
  projects: Client<typeof ProjectsService>;
  /** The same with the gateway's service token: a business's public brand on the lead pages (no user). */
  projectsAsGateway: Client<typeof ProjectsService>;
  /** The projects service's team members, with the user's token. */
  members: Client<typeof MembersService>;
  /** The projects service's custom domains, with the user's token. */
  customDomains: Client<typeof CustomDomainsService>;
  /** The same with the gateway's service token: which business a request's `Host` is (ResolveCustomDomain). */
  customDomainsAsGateway: Client<typeof CustomDomainsService>;
  workflows: Client<typeof WorkflowsService>;
  /** Workflows' published pages; GetPublishedPage is public (no token). */
  pages: Client<typeof PagesService>;
  /** The same with the gateway's service token: a custom domain's pages (ListProjectPages). */
  pagesAsGateway: Client<typeof PagesService>;
  billing: Client<typeof BillingService>;
  /** Billing's payments, called with the user's token. */
  payments: Client<typeof PaymentsService>;
  /** Billing's referrals, with the user's token. */
  referrals: Client<typeof ReferralsService>;
  /** Billing's payments with the gateway's service token: Stripe's webhooks (no user). */
  paymentsAsGateway: Client<typeof PaymentsService>;
  contacts: Client<typeof ContactsService>;
  /** The contacts service's lead form and assistant (public RPCs are called without a token). */
  leads: Client<typeof LeadsService>;
  media: Client<typeof MediaService>;
  /** The notifications service's automations area. */
  automations: Client<typeof AutomationsService>;
  /** Notifications' content calendar and in-app inbox. */
  calendar: Client<typeof CalendarService>;
  inbox: Client<typeof InboxService>;
  /** Notifications' social publishing (channels chosen, posts and their state per channel). */
  social: Client<typeof SocialService>;
  /** Notifications' email campaigns, with the user's token. */
  campaigns: Client<typeof CampaignsService>;
  /** The same with the gateway's service token: open/click tracking and SendGrid's webhook (no user). */
  campaignsAsGateway: Client<typeof CampaignsService>;
  /** Notifications' email and social post templates. */
  templates: Client<typeof TemplatesService>;
  /** Notifications' sender identities and sending domains, with the user's token. */
  senders: Client<typeof SendersService>;
  /** The same with the gateway's service token: a confirmation link's landing (no user). */
  sendersAsGateway: Client<typeof SendersService>;
  /** Notifications' outgoing webhook endpoints, deliveries and Zapier hooks, with the user's token. */
  webhooks: Client<typeof WebhooksService>;
  /** Notifications' approval links, with the user's token (the owner's side). */
  approvals: Client<typeof ApprovalsService>;
  /** The same with the gateway's service token: the reviewer's public page (no user). */
  approvalsAsGateway: Client<typeof ApprovalsService>;
}

/**
 * The gateway's clients. Calls to auth carry the gateway's service token (`service:gateway`) unless
 * they set `authorization` themselves (a user's key management): auth trusts the client IP a
 * sign-in, sign-up or forgot-password names only from the gateway, and VerifyApiKey is the
 * gateway's alone. Every other call carries the user's token (`onBehalfOf`).
 */
export function createClients(config: Config): Clients {
  const options = { timeoutMs: config.RPC_TIMEOUT_MS };
  const credentials = serviceCredentials({
    name: "gateway",
    secret: config.SERVICE_SECRET,
    authUrl: config.AUTH_URL,
    timeoutMs: config.RPC_TIMEOUT_MS,
  });
  return {
    auth: createServiceClient(AuthService, config.AUTH_URL, { ...options, as: "service", credentials }),
    account: createServiceClient(AccountService, config.ACCOUNT_URL, options),
    admin: createServiceClient(AdminService, config.ACCOUNT_URL, options),
    integrations: createServiceClient(IntegrationsService, config.ACCOUNT_URL, options),
    integrationsAsGateway: createServiceClient(IntegrationsService, config.ACCOUNT_URL, {
      ...options,
      as: "service",
      credentials,
    }),
    projects: createServiceClient(ProjectsService, config.PROJECTS_URL, options),
    projectsAsGateway: createServiceClient(ProjectsService, config.PROJECTS_URL, {
      ...options,
      as: "service",
      credentials,
    }),
    members: createServiceClient(MembersService, config.PROJECTS_URL, options),
    customDomains: createServiceClient(CustomDomainsService, config.PROJECTS_URL, options),
    customDomainsAsGateway: createServiceClient(CustomDomainsService, config.PROJECTS_URL, {
      ...options,
      as: "service",
      credentials,
    }),
    workflows: createServiceClient(WorkflowsService, config.WORKFLOWS_URL, options),
    pages: createServiceClient(PagesService, config.WORKFLOWS_URL, options),
    pagesAsGateway: createServiceClient(PagesService, config.WORKFLOWS_URL, {
      ...options,
      as: "service",
      credentials,
    }),
    billing: createServiceClient(BillingService, config.BILLING_URL, options),
    payments: createServiceClient(PaymentsService, config.BILLING_URL, options),
    referrals: createServiceClient(ReferralsService, config.BILLING_URL, options),
    paymentsAsGateway: createServiceClient(PaymentsService, config.BILLING_URL, {
      ...options,
      as: "service",
      credentials,
    }),
    contacts: createServiceClient(ContactsService, config.CONTACTS_URL, options),
    leads: createServiceClient(LeadsService, config.CONTACTS_URL, options),
    media: createServiceClient(MediaService, config.MEDIA_URL, options),
    automations: createServiceClient(AutomationsService, config.NOTIFICATIONS_URL, options),
    calendar: createServiceClient(CalendarService, config.NOTIFICATIONS_URL, options),
    inbox: createServiceClient(InboxService, config.NOTIFICATIONS_URL, options),
    social: createServiceClient(SocialService, config.NOTIFICATIONS_URL, options),
    campaigns: createServiceClient(CampaignsService, config.NOTIFICATIONS_URL, options),
    campaignsAsGateway: createServiceClient(CampaignsService, config.NOTIFICATIONS_URL, {
      ...options,
      as: "service",
      credentials,
    }),
    templates: createServiceClient(TemplatesService, config.NOTIFICATIONS_URL, options),
    senders: createServiceClient(SendersService, config.NOTIFICATIONS_URL, options),
    webhooks: createServiceClient(WebhooksService, config.NOTIFICATIONS_URL, options),
    sendersAsGateway: createServiceClient(SendersService, config.NOTIFICATIONS_URL, {
      ...options,
      as: "service",
      credentials,
    }),
    approvals: createServiceClient(ApprovalsService, config.NOTIFICATIONS_URL, options),
    approvalsAsGateway: createServiceClient(ApprovalsService, config.NOTIFICATIONS_URL, {
      ...options,
      as: "service",
      credentials,
    }),
  };
}
