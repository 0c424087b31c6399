import { runService } from "@crafter/kit";
import { configSchema } from "./config";
import type { NotificationsDeps } from "./deps";
import { notificationsConsumers } from "./events/consumers";
import { createSmtpMailer } from "./mail/mailer";
import { access } from "./rpc/access";
import { routes } from "./rpc/routes";
import { createStores } from "./store";

await runService({
  name: "notifications",
  configSchema,
  async setup({ config, mongo, logger }) {
    const mailer = createSmtpMailer({
      url: config.SMTP_URL,
      from: config.MAIL_FROM,
      timeoutMs: config.SMTP_TIMEOUT_MS,
    });
    // Not fatal: sends are retried per event and land on the DLQ if the server stays away.
    await mailer.verify().catch((error) => logger.warn({ err: error }, "SMTP server not reachable yet"));
    const deps: NotificationsDeps = {
      stores: await createStores(mongo),
      mailer,
      publicOrigin: config.PUBLIC_ORIGIN,
      logger,
      now: () => new Date(),
    };
    return {
      routes: routes(deps),
      access,
      consumers: notificationsConsumers(config.CRAFTER_NAMESPACE, deps),
      onStop: async () => mailer.close(),
    };
  },
});
