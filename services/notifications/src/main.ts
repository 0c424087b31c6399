import { runService, TOPICS, topicName } from "@crafter/kit";
import { workflowsCraftSource } from "./clients/crafts";
import { configSchema } from "./config";
import type { NotificationsDeps } from "./deps";
import { unwiredCampaigns } from "./domain/calendar-ports";
import { notificationsConsumers } from "./events/consumers";
import { InboxEvents } from "./events/publishers";
import { createSmtpMailer } from "./mail/mailer";
import { access } from "./rpc/access";
import { routes } from "./rpc/routes";
import { createStores } from "./store";
import { startDueScan } from "./usecases/calendar-due";

await runService({
  name: "notifications",
  configSchema,
  async setup({ config, mongo, logger, kick }) {
    const mailer = createSmtpMailer({
      url: config.SMTP_URL,
      from: config.MAIL_FROM,
      timeoutMs: config.SMTP_TIMEOUT_MS,
    });
    // Not fatal: sends are retried per event and land on the DLQ if the server stays away.
    await mailer.verify().catch((error) => logger.warn({ err: error }, "SMTP server not reachable yet"));
    const inboxEvents = new InboxEvents(config.CRAFTER_NAMESPACE);
    const stores = await createStores(mongo);
    const deps: NotificationsDeps = {
      stores,
      mailer,
      publicOrigin: config.PUBLIC_ORIGIN,
      logger,
      now: () => new Date(),
      calendar: {
        inboxEvents,
        kick,
        crafts: workflowsCraftSource(config.WORKFLOWS_URL, config.RPC_TIMEOUT_MS),
        // The lead wires email-api's campaignsForCalendar / rescheduleCampaign here at merge.
        campaigns: unwiredCampaigns,
      },
    };
    const stopDueScan = process.argv[2] === "migrate" ? () => {} : startDueScan(deps, config.CALENDAR_DUE_SCAN_MS);
    return {
      routes: routes(deps),
      access,
      // notifications.email.v1 is the email area's (email-api); listed so the topic exists for the calendar's consumer.
      publishes: [inboxEvents.topic, topicName(config.CRAFTER_NAMESPACE, TOPICS.notificationsEmail)],
      outbox: stores.outbox,
      consumers: notificationsConsumers(config.CRAFTER_NAMESPACE, deps),
      onStop: async () => {
        stopDueScan();
        mailer.close();
      },
    };
  },
});
