import { createHmac } from "node:crypto";
import { isPublicAddress, periodicJob, pinnedAddress, providerHttp, runService } from "@crafter/kit";
import { contactsForAutomations } from "./clients/automation-contacts";
import { accountSendgridConnections, businessProviderRouter } from "./clients/business-sendgrid";
import { businessZones } from "./clients/business-zones";
import { workflowsCraftSource, workflowsEmailCrafts } from "./clients/crafts";
import { billingUsage, contactsLinks, contactsPort, fixedProvider, projectsBusiness } from "./clients/email-ports";
import { accountFlags, flagProviderRouter } from "./clients/provider-router";
import { projectsBrands, projectsOfCaller } from "./clients/sender-ports";
import { socialAdapters } from "./clients/social/registry";
import { accountTokens, mediaImages } from "./clients/social-ports";
import { configSchema } from "./config";
import type { NotificationsDeps } from "./deps";
import { domainOf, parseMailbox } from "./domain/sender";
import { notificationsConsumers } from "./events/consumers";
import { EmailEvents, InboxEvents } from "./events/publishers";
import { createAutomationQueue, DATE_SCAN_QUEUE, DATE_SCAN_SCHEDULER } from "./jobs/automation-queue";
import { createCampaignQueue } from "./jobs/dispatch-queue";
import { createSocialQueue } from "./jobs/social-queue";
import { createWebhookQueue, redisFailureStreaks } from "./jobs/webhook-queue";
import { txtLookup } from "./mail/dns";
import { createSmtpMailer } from "./mail/mailer";
import { RedisThrottle, sendgridProvider, smtpProvider } from "./mail/providers";
import { access } from "./rpc/access";
import { routes } from "./rpc/routes";
import { createStores } from "./store";
import { retryApprovalMail } from "./usecases/approval-mail";
import { scanDateFields } from "./usecases/automation-triggers";
import { stepProcessor } from "./usecases/automations-engine";
import { runDueScan } from "./usecases/calendar-due";
import { campaignsToDispatch, dispatchCampaign } from "./usecases/campaign-dispatch";
import { campaignsForCalendar, rescheduleCampaign } from "./usecases/campaigns-calendar";
import { businessWebhookKeys, sendgridKey } from "./usecases/email-tracking";
import { notify } from "./usecases/inbox";
import { sendToContact, sendWaiting } from "./usecases/send-to-contact";
import { cachedSenders, type SenderDeps } from "./usecases/sender";
import { advancePost, craftPostForStep, publishForAutomation, sweepSocialPosts } from "./usecases/social-publishing";
import { templateOfUser } from "./usecases/templates";
import { runDeliveryAttempt, sweepWebhookLog } from "./usecases/webhooks";

await runService({
  name: "notifications",
  configSchema,
  async setup({ config, mongo, redis, logger, kick, credentials }) {
    const mailer = createSmtpMailer({
      url: config.SMTP_URL,
      from: config.MAIL_FROM,
      timeoutMs: config.SMTP_TIMEOUT_MS,
    });
    // Not fatal: sends are retried per event and land on the DLQ if the server stays away.
    await mailer.verify().catch((error) => logger.warn({ err: error }, "SMTP server not reachable yet"));
    const inboxEvents = new InboxEvents(config.CRAFTER_NAMESPACE);
    const stores = await createStores(mongo);

    // The email area: a pooled transport of its own, so campaigns do not queue account emails.
    // config.ts makes sure one of the two is set.
    const trackingSecret =
      config.EMAIL_TRACKING_SECRET ??
      createHmac("sha256", config.SERVICE_SECRET ?? "")
        .update("crafter-email-tracking")
        .digest("base64url");
    const from = config.EMAIL_FROM ?? config.MAIL_FROM;
    const campaignMailer = createSmtpMailer({
      url: config.SMTP_URL,
      from,
      timeoutMs: config.SMTP_TIMEOUT_MS,
      pool: config.EMAIL_CONCURRENCY,
    });
    // Paced per provider and per account across every replica (Redis), not per process.
    const throttle = (provider: string) =>
      new RedisThrottle(
        redis,
        provider,
        config.EMAIL_RATE_PER_SECOND,
        config.EMAIL_ACCOUNT_RATE_PER_SECOND ?? config.EMAIL_RATE_PER_SECOND,
      );
    const smtp = { provider: smtpProvider(campaignMailer), throttle: throttle("smtp") };
    const sendgrid = config.SENDGRID_API_KEY
      ? {
          provider: sendgridProvider({
            baseUrl: config.SENDGRID_API_URL,
            apiKey: config.SENDGRID_API_KEY,
            from,
            timeoutMs: config.SMTP_TIMEOUT_MS,
          }),
          throttle: throttle("sendgrid"),
        }
      : null;
    const timeout = config.RPC_TIMEOUT_MS;
    const sendgridConnections = accountSendgridConnections(config.ACCOUNT_URL, timeout, credentials);
    const automationQueue = createAutomationQueue({
      redisUrl: config.REDIS_URL,
      namespace: config.CRAFTER_NAMESPACE,
      logger,
    });
    const events = new EmailEvents(config.CRAFTER_NAMESPACE);
    const business = projectsBusiness(config.PROJECTS_URL, timeout, mongo, credentials);
    // Campaigns and automations: the project's own From once confirmed, else the platform's address.
    const platform = parseMailbox(from);
    if (!config.SECRETS_KEYS) logger.warn("SECRETS_KEYS is not set: sending domains cannot get DKIM keys");
    const senderDeps: SenderDeps = {
      store: stores.senders,
      projects: projectsOfCaller(config.PROJECTS_URL, timeout),
      businessName: async (userId, projectId, token) => (await business.footer(userId, projectId, token)).name,
      platform,
      linkSecret: createHmac("sha256", trackingSecret).update("crafter-sender-address").digest("base64url"),
      linkTtlMs: config.SENDER_LINK_TTL_MS,
      linkCooldownMs: 60_000,
      keys: config.SECRETS_KEYS,
      dns: txtLookup({ servers: config.DNS_SERVERS, timeoutMs: config.DNS_TIMEOUT_MS }),
      spfInclude: config.SENDER_SPF_INCLUDE ?? `_spf.${domainOf(platform.address) || "crafter.local"}`,
      dmarcReport: config.SENDER_DMARC_REPORT ?? "",
      mailer,
      publicOrigin: config.PUBLIC_ORIGIN,
      logger,
      now: () => new Date(),
      cacheMs: config.SENDER_CACHE_MS,
    };
    const senders = cachedSenders(senderDeps);
    const webhookQueue = createWebhookQueue({
      redisUrl: config.REDIS_URL,
      namespace: config.CRAFTER_NAMESPACE,
      logger,
    });
    // Social publishing: posts on a BullMQ queue (delayed jobs at their time), swept for attempts
    // cut short; provider reads are retried, publishing calls made once (Meta may have made the post).
    const socialQueue = createSocialQueue({
      redisUrl: config.REDIS_URL,
      namespace: config.CRAFTER_NAMESPACE,
      logger,
      concurrency: 4,
      lockMs: Math.max(2000, Math.min(30_000, config.SOCIAL_ATTEMPT_LEASE_MS)),
    });
    const providerSettings = { timeoutMs: config.SOCIAL_HTTP_TIMEOUT_MS, pins: config.INTEGRATIONS_RESOLVE };
    const deps: NotificationsDeps = {
      stores,
      mailer,
      publicOrigin: config.PUBLIC_ORIGIN,
      logger,
      now: () => new Date(),
      zones: businessZones(
        mongo,
        credentials ? { url: config.PROJECTS_URL, timeoutMs: timeout, credentials } : undefined,
      ),
      email: {
        contacts: contactsPort(config.CONTACTS_URL, timeout, credentials),
        links: contactsLinks(config.CONTACTS_URL, timeout, credentials),
        usage: billingUsage(config.BILLING_URL, timeout, credentials),
        business,
        senders,
        ...(credentials ? { brands: projectsBrands(config.PROJECTS_URL, timeout, credentials) } : {}),
        crafts: workflowsEmailCrafts(config.WORKFLOWS_URL, timeout),
        // A business's own SendGrid key when it connected one; else the platform's provider:
        // SendGrid for everyone (EMAIL_PROVIDER=sendgrid), or per user by `sendgrid_integration`.
        providers: businessProviderRouter({
          platform:
            config.EMAIL_PROVIDER === "sendgrid" && sendgrid
              ? fixedProvider(sendgrid.provider, sendgrid.throttle)
              : flagProviderRouter({
                  smtp,
                  sendgrid,
                  flagsOf: accountFlags(config.ACCOUNT_URL, timeout, credentials),
                  cacheMs: config.EMAIL_FLAGS_CACHE_MS,
                }),
          connections: sendgridConnections,
          http: providerHttp({ timeoutMs: config.INTEGRATIONS_TIMEOUT_MS, pins: config.INTEGRATIONS_RESOLVE }),
          baseUrl: config.SENDGRID_BASE_URL,
          from,
          throttleOf: (projectId) =>
            new RedisThrottle(
              redis,
              `sendgrid-business:${projectId}`,
              config.SENDGRID_BUSINESS_RATE_PER_SECOND,
              config.SENDGRID_BUSINESS_RATE_PER_SECOND,
            ),
          cacheMs: config.EMAIL_FLAGS_CACHE_MS,
        }),
        businessWebhookKey: businessWebhookKeys(sendgridConnections.webhookKey, config.EMAIL_FLAGS_CACHE_MS),
        events,
        kick,
        trackingSecret,
        retry: { attempts: config.EMAIL_RETRY_ATTEMPTS, baseMs: config.EMAIL_RETRY_BASE_MS },
        concurrency: config.EMAIL_CONCURRENCY,
        attemptLeaseMs: config.EMAIL_ATTEMPT_LEASE_MS,
        limitRetryMs: config.EMAIL_LIMIT_RETRY_MS,
      },
      sender: { ...senderDeps, cache: senders },
      webhooks: {
        store: stores.webhooks,
        projects: senderDeps.projects,
        flagsOf: accountFlags(config.ACCOUNT_URL, timeout, credentials),
        keys: config.SECRETS_KEYS,
        // One try per attempt: the retry schedule is the delivery queue's, over a day.
        http: providerHttp({ timeoutMs: config.WEBHOOKS_TIMEOUT_MS, pins: config.WEBHOOKS_RESOLVE, attempts: 1 }),
        queue: webhookQueue,
        streaks: redisFailureStreaks(redis, config.CRAFTER_NAMESPACE),
        notify: (input) => notify(deps, input),
        isPublic: isPublicAddress,
        pinned: (host) => pinnedAddress(config.WEBHOOKS_RESOLVE, host) !== undefined,
        retryScale: config.WEBHOOKS_RETRY_SCALE,
        maxFailures: config.WEBHOOKS_DISABLE_AFTER_FAILURES,
        logger,
        now: () => new Date(),
      },
      social: {
        adapters: socialAdapters({
          reads: providerHttp(providerSettings),
          writes: providerHttp({ ...providerSettings, attempts: 1 }),
          baseUrls: { meta: config.META_BASE_URL, tiktok: config.TIKTOK_BASE_URL },
        }),
        tokens: accountTokens(config.ACCOUNT_URL, timeout, credentials),
        images: mediaImages(
          config.MEDIA_URL,
          timeout,
          config.PUBLIC_ORIGIN,
          config.SOCIAL_IMAGE_URL_TTL_S,
          credentials,
        ),
        rules: {
          maxAttempts: config.SOCIAL_RETRY_ATTEMPTS,
          retryBaseMs: config.SOCIAL_RETRY_BASE_MS,
          leaseMs: config.SOCIAL_ATTEMPT_LEASE_MS,
        },
        flagsOf: accountFlags(config.ACCOUNT_URL, timeout, credentials),
        schedule: (postId, at) => socialQueue.schedule(postId, at),
      },
      calendar: {
        inboxEvents,
        kick,
        crafts: workflowsCraftSource(config.WORKFLOWS_URL, config.RPC_TIMEOUT_MS),
        campaigns: {
          campaignsForCalendar: (input) => campaignsForCalendar(deps, input),
          rescheduleCampaign: (input) => rescheduleCampaign(deps, input),
        },
      },
      automations: {
        contacts: contactsForAutomations({ url: config.CONTACTS_URL, credentials, timeoutMs: timeout }),
        mailer: {
          sendToContact: (input) => sendToContact(deps, input),
          senderAddress: async (userId, projectId, token) =>
            (await deps.email.business.footer(userId, projectId, token)).address,
        },
        templates: {
          async content(userId, templateId) {
            const template = await templateOfUser(deps, userId, templateId);
            return { subject: template.subject ?? "", html: template.html };
          },
        },
        notifier: { notify: (input) => notify(deps, input) },
        queue: automationQueue,
        social: {
          postOfCraft: (caller, projectId, craftId, channelIds) =>
            craftPostForStep(deps, caller, projectId, craftId, channelIds),
          publish: (input) => publishForAutomation(deps, input),
        },
        waitScale: config.AUTOMATION_WAIT_SCALE,
      },
    };
    const webhookKey = config.SENDGRID_WEBHOOK_PUBLIC_KEY ? sendgridKey(config.SENDGRID_WEBHOOK_PUBLIC_KEY) : null;
    // Campaign rounds and the scans that start them and the calendar's due entries run on BullMQ:
    // in one replica per occurrence, surviving restarts, with depth, age and failures as metrics.
    const queued = { redisUrl: config.REDIS_URL, namespace: config.CRAFTER_NAMESPACE, logger };
    const dateScan = periodicJob({
      ...queued,
      queue: DATE_SCAN_QUEUE,
      schedulerId: DATE_SCAN_SCHEDULER,
      everyMs: config.AUTOMATION_DATE_SCAN_MS,
      run: async () => {
        await scanDateFields(deps, deps.now());
      },
    });
    const campaignQueue = createCampaignQueue({
      ...queued,
      concurrency: config.EMAIL_CAMPAIGNS_AT_ONCE,
      parts: config.EMAIL_CAMPAIGN_PARTS,
      lockMs: Math.max(2000, config.EMAIL_ATTEMPT_LEASE_MS),
    });
    // Automation emails paused by a refused SendGrid key go out once a working key is connected.
    const waitingScan = periodicJob({
      ...queued,
      queue: "email-waiting-scan",
      everyMs: config.EMAIL_WAITING_RETRY_MS,
      run: async () => {
        await sendWaiting(deps);
      },
    });
    const dispatchScan = periodicJob({
      ...queued,
      queue: "campaign-dispatch-scan",
      everyMs: config.EMAIL_DISPATCH_INTERVAL_MS,
      run: async () => campaignQueue.enqueue(await campaignsToDispatch(deps)),
    });
    const dueScan = periodicJob({
      ...queued,
      queue: "calendar-due-scan",
      everyMs: config.CALENDAR_DUE_SCAN_MS,
      run: () => runDueScan(deps),
    });
    const approvalMailRetry = periodicJob({
      ...queued,
      queue: "approval-mail-retry",
      everyMs: config.APPROVAL_MAIL_RETRY_MS,
      run: async () => {
        const counts = await retryApprovalMail(deps);
        if (counts.sent + counts.waiting + counts.dropped > 0) logger.info(counts, "approval emails retried");
      },
    });
    const socialSweep = periodicJob({
      ...queued,
      queue: "social-sweep",
      everyMs: config.SOCIAL_SWEEP_MS,
      run: async () => {
        await sweepSocialPosts(deps);
      },
    });
    const webhookSweep = periodicJob({
      ...queued,
      queue: "webhook-log-sweep",
      everyMs: 3_600_000,
      run: async () => {
        const removed = await sweepWebhookLog(deps.webhooks, config.WEBHOOKS_KEEP_DAYS);
        if (removed > 0) logger.info({ removed }, "old webhook events and deliveries removed");
      },
    });
    return {
      async background() {
        socialQueue.start((postId) => advancePost(deps, postId));
        await socialSweep.start();
        automationQueue.start(stepProcessor(deps));
        webhookQueue.start((job) => runDeliveryAttempt(deps.webhooks, job));
        await dateScan.start();
        await approvalMailRetry.start();
        campaignQueue.start((campaignId, stopping, part) => dispatchCampaign(deps, campaignId, stopping, part));
        await dispatchScan.start();
        await waitingScan.start();
        await dueScan.start();
        await webhookSweep.start();
      },
      routes: routes(deps, webhookKey),
      access,
      publishes: [inboxEvents.topic, events.topic],
      outbox: stores.outbox,
      consumers: notificationsConsumers(config.CRAFTER_NAMESPACE, deps),
      onStop: async () => {
        await Promise.all([
          dispatchScan.close(),
          waitingScan.close(),
          dueScan.close(),
          approvalMailRetry.close(),
          socialSweep.close(),
          webhookSweep.close(),
        ]);
        await socialQueue.close();
        await automationQueue.close();
        await webhookQueue.close();
        await dateScan.close();
        await campaignQueue.close();
        mailer.close();
        campaignMailer.close();
      },
    };
  },
});
