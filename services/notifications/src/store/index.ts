import type { Connection, Model } from "mongoose";
import { type CalendarRepository, createCalendarRepository } from "./calendar.repository";
import { createDeliveryRepository, type DeliveryRepository } from "./delivery.repository";
import { createInboxRepository, type InboxRepository, type NotificationDoc } from "./inbox.repository";

/** Every repository of the notifications service, over its own database. */
export interface NotificationsStores {
  deliveries: DeliveryRepository;
  inbox: InboxRepository;
  calendar: CalendarRepository;
  /** Models whose documents carry an outbox (relayed to Kafka by the kit). */
  outbox: Array<Model<NotificationDoc>>;
}

/** Builds the repositories and waits until their indexes exist (the unique event id is the send-once guard). */
export async function createStores(connection: Connection): Promise<NotificationsStores> {
  const inbox = await createInboxRepository(connection);
  return {
    deliveries: await createDeliveryRepository(connection),
    inbox,
    calendar: await createCalendarRepository(connection),
    outbox: [inbox.model],
  };
}
