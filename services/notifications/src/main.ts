import { createHmac } from "node:crypto";
import { runService } from "@crafter/kit";
import {
  billingUsage,
  contactsPort,
  fixedProvider,
  interimContactLinks,
  projectsBusiness,
} from "./clients/email-ports";
import { configSchema } from "./config";
import type { NotificationsDeps } from "./deps";
import { notificationsConsumers } from "./events/consumers";
import { EmailEvents } from "./events/publishers";
import { createSmtpMailer } from "./mail/mailer";
import { type EmailProvider, sendgridProvider, smtpProvider, Throttle } from "./mail/providers";
import { access } from "./rpc/access";
import { routes } from "./rpc/routes";
import { createStores } from "./store";
import { CampaignDispatcher } from "./usecases/campaign-dispatch";
import { sendgridKey } from "./usecases/email-tracking";

await runService({
  name: "notifications",
  configSchema,
  async setup({ config, mongo, logger, kick, credentials }) {
    const mailer = createSmtpMailer({
      url: config.SMTP_URL,
      from: config.MAIL_FROM,
      timeoutMs: config.SMTP_TIMEOUT_MS,
    });
    // Not fatal: sends are retried per event and land on the DLQ if the server stays away.
    await mailer.verify().catch((error) => logger.warn({ err: error }, "SMTP server not reachable yet"));
    const stores = await createStores(mongo);

    // The email area: a pooled transport of its own, so campaigns do not queue account emails.
    const trackingSecret =
      config.EMAIL_TRACKING_SECRET ??
      (config.SERVICE_SECRET
        ? createHmac("sha256", config.SERVICE_SECRET).update("crafter-email-tracking").digest("base64url")
        : undefined);
    if (!trackingSecret) throw new Error("EMAIL_TRACKING_SECRET or SERVICE_SECRET is required (signed email links)");
    const from = config.EMAIL_FROM ?? config.MAIL_FROM;
    const campaignMailer = createSmtpMailer({
      url: config.SMTP_URL,
      from,
      timeoutMs: config.SMTP_TIMEOUT_MS,
      pool: config.EMAIL_CONCURRENCY,
    });
    let provider: EmailProvider = smtpProvider(campaignMailer);
    if (config.EMAIL_PROVIDER === "sendgrid") {
      if (!config.SENDGRID_API_KEY) throw new Error("SENDGRID_API_KEY is required when EMAIL_PROVIDER=sendgrid");
      provider = sendgridProvider({
        baseUrl: config.SENDGRID_API_URL,
        apiKey: config.SENDGRID_API_KEY,
        from,
        timeoutMs: config.SMTP_TIMEOUT_MS,
      });
    }
    const timeout = config.RPC_TIMEOUT_MS;
    const events = new EmailEvents(config.CRAFTER_NAMESPACE);
    const deps: NotificationsDeps = {
      stores,
      mailer,
      publicOrigin: config.PUBLIC_ORIGIN,
      logger,
      now: () => new Date(),
      email: {
        contacts: contactsPort(config.CONTACTS_URL, timeout, credentials),
        links: interimContactLinks(config.PUBLIC_ORIGIN, trackingSecret),
        usage: billingUsage(config.BILLING_URL, timeout, credentials),
        business: projectsBusiness(config.PROJECTS_URL, timeout, mongo),
        providers: fixedProvider(provider, new Throttle(config.EMAIL_RATE_PER_SECOND)),
        events,
        kick,
        trackingSecret,
        retry: { attempts: config.EMAIL_RETRY_ATTEMPTS, baseMs: config.EMAIL_RETRY_BASE_MS },
        concurrency: config.EMAIL_CONCURRENCY,
        attemptLeaseMs: config.EMAIL_ATTEMPT_LEASE_MS,
        limitRetryMs: config.EMAIL_LIMIT_RETRY_MS,
      },
    };
    const dispatcher = new CampaignDispatcher(deps, config.EMAIL_DISPATCH_INTERVAL_MS);
    dispatcher.start();
    const webhookKey = config.SENDGRID_WEBHOOK_PUBLIC_KEY ? sendgridKey(config.SENDGRID_WEBHOOK_PUBLIC_KEY) : null;
    return {
      routes: routes(deps, webhookKey),
      access,
      publishes: [events.topic],
      outbox: stores.outbox,
      consumers: notificationsConsumers(config.CRAFTER_NAMESPACE, deps),
      onStop: async () => {
        await dispatcher.stop();
        mailer.close();
        campaignMailer.close();
      },
    };
  },
});
