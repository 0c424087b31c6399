import { runService } from "@crafter/kit";
import { contactsForAutomations } from "./clients/automation-contacts";
import { configSchema } from "./config";
import type { NotificationsDeps } from "./deps";
import { notificationsConsumers } from "./events/consumers";
import { createAutomationQueue } from "./jobs/automation-queue";
import { createSmtpMailer } from "./mail/mailer";
import { access } from "./rpc/access";
import { routes } from "./rpc/routes";
import { createStores } from "./store";
import { stepProcessor } from "./usecases/automations-engine";
import { interimContactMailer } from "./usecases/automations-mailer";

await runService({
  name: "notifications",
  configSchema,
  async setup({ config, mongo, logger, credentials }) {
    const mailer = createSmtpMailer({
      url: config.SMTP_URL,
      from: config.MAIL_FROM,
      timeoutMs: config.SMTP_TIMEOUT_MS,
    });
    // Not fatal: sends are retried per event and land on the DLQ if the server stays away.
    await mailer.verify().catch((error) => logger.warn({ err: error }, "SMTP server not reachable yet"));
    const base = {
      stores: await createStores(mongo),
      mailer,
      publicOrigin: config.PUBLIC_ORIGIN,
      logger,
      now: () => new Date(),
    };
    const contacts = contactsForAutomations({
      url: config.CONTACTS_URL,
      credentials,
      timeoutMs: config.RPC_TIMEOUT_MS,
    });
    const automationQueue = createAutomationQueue({
      redisUrl: config.REDIS_URL,
      namespace: config.CRAFTER_NAMESPACE,
      logger,
    });
    const deps: NotificationsDeps = {
      ...base,
      // ContactMailer: email-api's sendToContact replaces the interim mailer at merge; OwnerNotifier:
      // the calendar area's notify (null until merged: notify_owner steps are skipped, saying so).
      automations: {
        contacts,
        mailer: interimContactMailer(base, contacts),
        notifier: null,
        queue: automationQueue,
        waitScale: config.AUTOMATION_WAIT_SCALE,
      },
    };
    if (process.argv[2] !== "migrate") automationQueue.start(stepProcessor(deps));
    return {
      routes: routes(deps),
      access,
      consumers: notificationsConsumers(config.CRAFTER_NAMESPACE, deps),
      onStop: async () => {
        await automationQueue.close();
        mailer.close();
      },
    };
  },
});
