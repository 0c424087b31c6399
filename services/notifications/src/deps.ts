import type { Logger } from "@crafter/kit";
import type { CampaignsPort, CraftSource } from "./domain/calendar-ports";
import type { InboxEvents } from "./events/publishers";
import type { Mailer } from "./mail/mailer";
import type { NotificationsStores } from "./store";

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
  mailer: Mailer;
  /** Public origin of the deployment, without a trailing slash; email links point here. */
  publicOrigin: string;
  logger: Logger;
  /** The clock (injected so tests can fix it). */
  now: () => Date;
  /** The calendar and inbox (issue 13). */
  calendar: CalendarArea;
}
