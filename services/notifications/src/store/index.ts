import type { Connection } from "mongoose";
import { createDeliveryRepository, type DeliveryRepository } from "./delivery.repository";

/** Every repository of the notifications service, over its own database. */
export interface NotificationsStores {
  deliveries: DeliveryRepository;
}

/** Builds the repositories and waits until their indexes exist (the unique event id is the send-once guard). */
export async function createStores(connection: Connection): Promise<NotificationsStores> {
  return { deliveries: await createDeliveryRepository(connection) };
}
