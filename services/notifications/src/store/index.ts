import type { Connection } from "mongoose";
import { createDeliveryRepository, type DeliveryRepository } from "./delivery.repository";
import { createTemplateRepository, type TemplateRepository } from "./template.repository";

/** Every repository of the notifications service, over its own database. */
export interface NotificationsStores {
  deliveries: DeliveryRepository;
  templates: TemplateRepository;
}

/** Builds the repositories and waits until their indexes exist (the unique event id is the send-once guard). */
export async function createStores(connection: Connection): Promise<NotificationsStores> {
  const [deliveries, templates] = await Promise.all([
    createDeliveryRepository(connection),
    createTemplateRepository(connection),
  ]);
  return { deliveries, templates };
}
