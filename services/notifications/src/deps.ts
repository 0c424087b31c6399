import type { Logger } from "@crafter/kit";
import type { AutomationPorts } from "./domain/automation-ports";
import type { Mailer } from "./mail/mailer";
import type { NotificationsStores } from "./store";

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
}
